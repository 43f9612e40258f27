import type { UserSettings } from '@teamchat/contracts';

/** What presence needs to know about a person (read from users-groups' tables, never written). */
export interface Person {
  id: number;
  /** The address the API shows for them (a dummy one when their email is hidden). */
  email: string;
  role: number;
  isActive: boolean;
  isBot: boolean;
  settings: UserSettings;
}
