import { Injectable } from '@nestjs/common';
import type { UserModel } from '@teamchat/db';
import { LIMITS, Role, badRequest, isRole } from '@teamchat/zulip';
import { generateApiKey } from '../auth/api-keys';
import { hashPassword, isLongEnough } from '../auth/passwords';
import { resolveSettings } from '@teamchat/contracts';
import { OrganizationsRepository } from '../data/organizations.repository';
import type { Transaction } from '../data/transactions';
import { UsersRepository } from '../data/users.repository';

export interface NewUser {
  realmId: number;
  email: string;
  fullName: string;
  role?: number;
  password?: string;
  /** The password already hashed (before a transaction, so no connection waits on the hashing). */
  passwordHash?: string;
  isBot?: boolean;
  botType?: number;
  botOwnerId?: number;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Rules every new account follows, whoever creates it. */
export function checkNewUser(input: NewUser): void {
  if (!EMAIL_PATTERN.test(input.email) || input.email.length > LIMITS.maxEmailLength) {
    throw badRequest(`Invalid email '${input.email}'`);
  }
  const name = input.fullName.trim();
  if (!name) throw badRequest('Name too short!');
  if (name.length > LIMITS.maxFullNameLength) throw badRequest('Name too long!');
  if (input.role !== undefined && !isRole(input.role)) throw badRequest('Invalid role');
  if (input.password !== undefined && !isLongEnough(input.password)) {
    throw badRequest('New password is too weak!');
  }
}

/**
 * Creates an account with its API key, its password (when given) and its settings copied
 * from the organization's defaults. Runs inside the caller's transaction when given one.
 */
@Injectable()
export class CreateUser {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly users: UsersRepository,
  ) {}

  async execute(input: NewUser, tx?: Transaction): Promise<UserModel> {
    checkNewUser(input);
    const realm = await this.organizations.byId(input.realmId, tx);
    if (!realm) throw badRequest('Invalid organization');
    const taken = await this.users.idWithEmail(input.realmId, input.email, tx);
    if (taken !== undefined) throw badRequest(`Email '${input.email}' already in use`);

    const passwordHash = input.passwordHash ?? (input.password !== undefined ? await hashPassword(input.password) : undefined);
    return this.users.create(
      {
        realmId: input.realmId,
        deliveryEmail: input.email.trim(),
        fullName: input.fullName.trim(),
        role: input.role ?? Role.MEMBER,
        isBot: input.isBot ?? false,
        botType: input.isBot ? (input.botType ?? 1) : null,
        botOwnerId: input.botOwnerId,
        settings: resolveSettings(realm.userSettingsDefaults),
        apiKey: generateApiKey(),
        passwordHash,
      },
      tx,
    );
  }
}
