import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, isStoredId, userIdsWithEmail, type Prisma, type RealmModel, type UserModel } from '@teamchat/db';
import { onConnection, type PgTransaction, type Transaction } from './transactions';
import {
  changeAvatarSource,
  accountsOfRealm,
  activeUsersOfRealm,
  canChangeUserEmails,
  lockActiveBotsOwnedBy,
  lockHumanOwners,
  lockUser,
  setActive,
  setBotOwner,
  setDeliveryEmail,
  setFullName,
  setRole,
  userOfRealm,
  usersByDeliveryEmail,
  usersOfRealm,
  usersOfRealmByIds,
  usersOfRealmPage,
  activeHumanAdminsOfRealm,
  wholeUserOfRealm,
  type UserRow,
} from './users.sql';

export type { UserRow } from './users.sql';

/** An account as it is stored when created: with its API key, and its password's hash when it has one. */
export interface NewUserRow {
  realmId: number;
  deliveryEmail: string;
  fullName: string;
  role: number;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | undefined;
  settings: Prisma.InputJsonValue;
  apiKey: string;
  passwordHash?: string;
}

/** A user with their organization's row. */
export type UserWithRealm = UserModel & { realm: RealmModel };

/**
 * The `users` table (accounts, human and bot). GET /users and user administration run named
 * statements on pg (administration's changes inside a `PgTransaction`, which locks owners
 * before the user); account creation, the notification bot and the cold reads are on Prisma.
 * Settings are SettingsRepository's, credentials CredentialsRepository's.
 */
@Injectable()
export class UsersRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  // ---- reads (pg) ----

  /** Every account of the organization, active or not, in id order. */
  ofRealm(realmId: number, tx: PgTransaction | Transaction = this.pg): Promise<UserRow[]> {
    return onConnection(tx).run(usersOfRealm, realmId);
  }

  /** The organization's accounts with ids after `afterId`, in id order, at most `limit`. */
  ofRealmPage(realmId: number, afterId: number, limit: number): Promise<UserRow[]> {
    return this.pg.run(usersOfRealmPage, realmId, afterId, limit);
  }

  /** The organization's accounts among these ids, in id order. */
  ofRealmByIds(realmId: number, userIds: number[], tx: PgTransaction | Transaction = this.pg): Promise<UserRow[]> {
    return onConnection(tx).run(usersOfRealmByIds, realmId, userIds);
  }

  /** The organization's account with this id, if any. */
  async inRealm(realmId: number, userId: number, tx: PgTransaction = this.pg): Promise<UserRow | undefined> {
    return (await tx.run(userOfRealm, realmId, userId))[0];
  }

  /** The organization's accounts with this real address, whatever its case (at most one). */
  withDeliveryEmail(realmId: number, email: string): Promise<UserRow[]> {
    return this.pg.run(usersByDeliveryEmail, realmId, email);
  }

  /** The organization's active users with their roles, in id order (who receive its events). */
  activeOfRealm(realmId: number, tx: PgTransaction | Transaction = this.pg): Promise<{ id: number; role: number }[]> {
    return onConnection(tx).run(activeUsersOfRealm, realmId);
  }

  /** The ids of the organization's active users, in id order. */
  async activeIdsOfRealm(realmId: number, tx: PgTransaction | Transaction = this.pg): Promise<number[]> {
    return (await this.activeOfRealm(realmId, tx)).map((user) => user.id);
  }

  /** The ids of the organization's active human administrators and owners, in id order. */
  async humanAdminIdsOfRealm(realmId: number): Promise<number[]> {
    return (await this.pg.run(activeHumanAdminsOfRealm, realmId)).map((user) => user.id);
  }

  /** Whether the user holds Zulip's can_change_user_emails special permission. */
  async canChangeUserEmails(userId: number): Promise<boolean> {
    const [row] = await this.pg.run(canChangeUserEmails, userId);
    return row?.canChangeUserEmails === true;
  }

  /** The organization's accounts among these ids, as a Users profile field's value needs them. */
  accountsOfRealm(realmId: number, userIds: number[]): Promise<{ id: number; isActive: boolean; isBot: boolean }[]> {
    return this.pg.run(accountsOfRealm, realmId, userIds);
  }

  // ---- user administration (pg transaction) ----

  /** The user's row, locked until the transaction ends. */
  async lock(userId: number, tx: PgTransaction): Promise<UserRow> {
    return (await tx.run(lockUser, userId))[0];
  }

  /** The organization's active human owners, locked (always before any user: see lockHumanOwners). */
  lockHumanOwners(realmId: number, tx: PgTransaction): Promise<{ id: number }[]> {
    return tx.run(lockHumanOwners, realmId);
  }

  /** The ids of the user's active bots, locked. */
  async lockActiveBotsOwnedBy(ownerId: number, tx: PgTransaction): Promise<number[]> {
    return (await tx.run(lockActiveBotsOwnedBy, ownerId)).map((bot) => bot.id);
  }

  async setRole(userId: number, role: number, tx: PgTransaction): Promise<void> {
    await tx.run(setRole, userId, role);
  }

  async setActive(userIds: number[], active: boolean, tx: PgTransaction): Promise<void> {
    await tx.run(setActive, userIds, active);
  }

  async setFullName(userId: number, fullName: string, tx: PgTransaction): Promise<void> {
    await tx.run(setFullName, userId, fullName);
  }

  /** Sets the avatar's source and moves its version on (Zulip's do_change_avatar_fields); the user as now stored. */
  async changeAvatarSource(userId: number, source: 'U' | 'G', tx: PgTransaction = this.pg): Promise<UserRow> {
    return (await tx.run(changeAvatarSource, userId, source))[0];
  }

  async setBotOwner(botId: number, ownerId: number, tx: PgTransaction): Promise<void> {
    await tx.run(setBotOwner, botId, ownerId);
  }

  /** Sets the real address; false when another account has it (the unique index), and nothing changed. */
  async trySetDeliveryEmail(userId: number, email: string, tx: PgTransaction): Promise<boolean> {
    try {
      await tx.run(setDeliveryEmail, userId, email);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return false;
      throw error;
    }
  }

  // ---- Prisma ----

  /** The id of the organization's account whose real address is `email`, whatever its case. */
  async idWithEmail(realmId: number, email: string, tx: Transaction = this.prisma): Promise<number | undefined> {
    return (await userIdsWithEmail(tx, realmId, email))[0];
  }

  /** The organization's account whose real address is `email`, whatever its case. */
  async byEmail(realmId: number, email: string): Promise<UserModel | null> {
    const id = await this.idWithEmail(realmId, email);
    return id === undefined ? null : this.prisma.user.findUnique({ where: { id } });
  }

  /** Whether the account using `email` in the organization (any case) is active; null when none does. */
  async emailHolder(realmId: number, email: string, tx: Transaction = this.prisma): Promise<{ isActive: boolean } | null> {
    const id = await this.idWithEmail(realmId, email, tx);
    return id === undefined ? null : tx.user.findUnique({ where: { id }, select: { isActive: true } });
  }

  create(user: NewUserRow, tx: Transaction = this.prisma): Promise<UserModel> {
    const { apiKey, passwordHash, ...fields } = user;
    return tx.user.create({
      data: {
        ...fields,
        apiKey: { create: { key: apiKey } },
        ...(passwordHash ? { password: { create: { hash: passwordHash } } } : {}),
      },
    });
  }

  /** The id of the organization's bot with this address, if any. */
  async botWithEmail(realmId: number, email: string, tx: Transaction = this.prisma): Promise<number | null> {
    const bot = await tx.user.findFirst({ where: { realmId, isBot: true, deliveryEmail: email }, select: { id: true } });
    return bot?.id ?? null;
  }

  /** Serialises the creation of the organization's notification bot until the transaction ends. */
  async lockNotificationBotCreation(realmId: number, tx: Transaction): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('notification-bot'), ${realmId})`;
  }

  /** Serialises the creation of one of the organization's system bots (by its address's local part) until the transaction ends. */
  async lockSystemBotCreation(realmId: number, localPart: string, tx: Transaction): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${localPart}), ${realmId})`;
  }

  /** Which of these ids are active users of the organization. */
  async activeIdsAmong(realmId: number, userIds: number[], tx: Transaction = this.prisma): Promise<number[]> {
    const found = await tx.user.findMany({ where: { realmId, isActive: true, id: { in: userIds.filter(isStoredId) } }, select: { id: true } });
    return found.map((user) => user.id);
  }

  /** Whether the organization has an account with this id. */
  async existsInRealm(realmId: number, userId: number): Promise<boolean> {
    if (!isStoredId(userId)) return false;
    return (await this.prisma.user.findFirst({ where: { id: userId, realmId }, select: { id: true } })) !== null;
  }

  /** A user known to exist, with their organization. */
  withRealm(userId: number, tx: Transaction = this.prisma): Promise<UserWithRealm> {
    return tx.user.findUniqueOrThrow({ where: { id: userId }, include: { realm: true } });
  }

  /** The organization's account with this id (known to exist), every column, through pg (POST /register's caller). */
  async wholeOfRealm(realmId: number, userId: number): Promise<UserModel> {
    const [user] = await this.pg.run(wholeUserOfRealm, realmId, userId);
    if (!user) throw new Error(`no user ${userId} in organization ${realmId}`);
    return user;
  }

  /** The real address, inside a Prisma transaction (an email change confirmed). */
  async changeDeliveryEmail(userId: number, email: string, tx: Transaction): Promise<void> {
    await tx.user.update({ where: { id: userId }, data: { deliveryEmail: email } });
  }
}
