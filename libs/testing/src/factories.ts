import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import type { PrismaService, RealmModel } from '@teamchat/db';
import { Role } from '@teamchat/zulip';
import type { Credentials } from './api-client';

export interface TestUser extends Credentials {
  id: number;
  realmId: number;
  fullName: string;
  role: number;
  password: string;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;
const apiKey = () => randomBytes(24).toString('base64').replace(/[^A-Za-z0-9]/g, '').padEnd(32, 'x').slice(0, 32);

/**
 * Test data builders: rows written straight to the test database, with only what a test
 * says differing from an ordinary account.
 */
export class Factory {
  constructor(private readonly db: PrismaService) {}

  organization(input: Partial<Pick<RealmModel, 'subdomain' | 'name' | 'enableSpectatorAccess' | 'deactivated' | 'passwordAuthEnabled'>> = {}) {
    return this.db.realm.create({
      data: {
        subdomain: input.subdomain ?? `org${unique()}`.slice(0, 40),
        name: input.name ?? 'Test organization',
        enableSpectatorAccess: input.enableSpectatorAccess ?? false,
        deactivated: input.deactivated ?? false,
        passwordAuthEnabled: input.passwordAuthEnabled ?? true,
      },
    });
  }

  async user(
    realm: { id: number },
    input: {
      role?: number;
      email?: string;
      fullName?: string;
      password?: string;
      isActive?: boolean;
      isBot?: boolean;
      botOwnerId?: number;
      settings?: Record<string, unknown>;
      timezone?: string;
    } = {},
  ): Promise<TestUser> {
    const password = input.password ?? `pw-${unique()}`;
    const key = apiKey();
    const user = await this.db.user.create({
      data: {
        realmId: realm.id,
        deliveryEmail: input.email ?? `user-${unique()}@example.test`,
        fullName: input.fullName ?? 'Test User',
        role: input.role ?? Role.MEMBER,
        isActive: input.isActive ?? true,
        isBot: input.isBot ?? false,
        botType: input.isBot ? 1 : null,
        botOwnerId: input.botOwnerId,
        timezone: input.timezone ?? '',
        settings: (input.settings ?? {}) as object,
        apiKey: { create: { key } },
        password: { create: { hash: await argon2.hash(password) } },
      },
    });
    return {
      id: user.id,
      realmId: realm.id,
      email: user.deliveryEmail,
      apiKey: key,
      fullName: user.fullName,
      role: user.role,
      password,
    };
  }

  /** An organization with an owner, an administrator, a member and a guest. */
  async organizationWithStaff(input: Parameters<Factory['organization']>[0] = {}) {
    const realm = await this.organization(input);
    return {
      realm,
      owner: await this.user(realm, { role: Role.OWNER, fullName: 'Olivia Owner' }),
      admin: await this.user(realm, { role: Role.ADMINISTRATOR, fullName: 'Adam Admin' }),
      member: await this.user(realm, { role: Role.MEMBER, fullName: 'Mia Member' }),
      guest: await this.user(realm, { role: Role.GUEST, fullName: 'Gus Guest' }),
    };
  }
}
