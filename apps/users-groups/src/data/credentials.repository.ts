import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, statement, userIdsWithEmail, type RealmModel, type UserModel } from '@teamchat/db';
import type { Transaction } from './transactions';

/** The owner of an API key, with their organization's subdomain. */
export type ApiKeyOwner = Pick<UserModel, 'id' | 'realmId' | 'deliveryEmail' | 'fullName' | 'role' | 'isActive' | 'isBot' | 'botType' | 'settings'> & {
  realmSubdomain: string;
};

const apiKeyOwners = statement<ApiKeyOwner & { apiKey: string }, [apiKeys: string[]]>(
  'users_groups.api_key_owners',
  `SELECT k.key AS "apiKey", u.id, u.realm_id AS "realmId", u.delivery_email AS "deliveryEmail", u.full_name AS "fullName", u.role,
     u.is_active AS "isActive", u.is_bot AS "isBot", u.bot_type AS "botType", u.settings, r.subdomain AS "realmSubdomain"
   FROM api_keys k JOIN users u ON u.id = k.user_id JOIN realms r ON r.id = u.realm_id
   WHERE k.key = ANY($1::text[])`,
);

type StoredPassword = { hash: string } | null;

/**
 * Credentials: `api_keys` and `password_credentials`, one of each per user at most. The keys'
 * owners are looked up for every batch of authentications the gateway has not cached (pg, one
 * named statement); the rest is Prisma.
 */
@Injectable()
export class CredentialsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** The owners of many keys in one statement, by key (a key no one has is not there). */
  async apiKeyOwners(apiKeys: string[]): Promise<Map<string, ApiKeyOwner>> {
    if (apiKeys.length === 0) return new Map();
    const rows = await this.pg.run(apiKeyOwners, apiKeys);
    return new Map(rows.map(({ apiKey, ...owner }) => [apiKey, owner]));
  }

  /** The organization's account whose real address is `email` (any case), with its password and key: a login's candidate. */
  async loginCandidate(realmId: number, email: string): Promise<(UserModel & { password: StoredPassword; apiKey: { key: string } | null }) | null> {
    const [id] = await userIdsWithEmail(this.prisma, realmId, email);
    return id === undefined ? null : this.prisma.user.findUnique({ where: { id }, include: { password: true, apiKey: true } });
  }

  /** A user known to exist, with their organization and password (their own settings change). */
  accountWithPassword(userId: number): Promise<UserModel & { realm: RealmModel; password: StoredPassword }> {
    return this.prisma.user.findUniqueOrThrow({ where: { id: userId }, include: { realm: true, password: true } });
  }

  /** The user's API key; `newKey` is stored first when they have none. */
  async ensureApiKey(userId: number, newKey: string): Promise<string> {
    const record = await this.prisma.apiKey.upsert({ where: { userId }, create: { userId, key: newKey }, update: {} });
    return record.key;
  }

  /** Replaces the user's API key (or gives them this one). */
  async replaceApiKey(userId: number, key: string, tx: Transaction = this.prisma): Promise<void> {
    await tx.apiKey.upsert({ where: { userId }, create: { userId, key }, update: { key, createdAt: new Date() } });
  }

  /** Stores the user's (new) password hash. */
  async setPasswordHash(userId: number, hash: string, tx: Transaction = this.prisma): Promise<void> {
    await tx.passwordCredential.upsert({ where: { userId }, create: { userId, hash }, update: { hash, updatedAt: new Date() } });
  }
}
