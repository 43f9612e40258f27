import { badRequest } from '@teamchat/zulip';

const MAX_NAME_LENGTH = 100;
/** Prefixes that would make a group's name read as a mention or a system group (Zulip's list). */
const RESERVED_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** A new or changed group name, checked as zerver/lib/user_groups.py check_user_group_name does. */
export function checkGroupName(name: string): string {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if (name.length > MAX_NAME_LENGTH) throw badRequest(`User group name cannot exceed ${MAX_NAME_LENGTH} characters.`);
  const prefix = RESERVED_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) throw badRequest(`User group name cannot start with '${prefix}'.`);
  return name;
}

export const nameTaken = (name: string) => badRequest(`User group '${name}' already exists.`);
