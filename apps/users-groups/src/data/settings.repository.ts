import { Injectable } from '@nestjs/common';
import type { Prisma } from '@teamchat/db';
import type { Transaction } from './transactions';

/** A user's stored settings with their organization's defaults (read over them), the user's row locked. */
export interface LockedSettings {
  settings: unknown;
  defaults: unknown;
}

/**
 * Personal settings (`users.settings`, read over the organization's `realms.user_settings_defaults`)
 * and those defaults. Every change runs in a transaction that locks the row it rewrites, so
 * concurrent changes are not lost.
 */
@Injectable()
export class SettingsRepository {
  /** The user's settings and the defaults, the user's row locked; undefined when the organization has no such user. */
  async lockOfUser(realmId: number, userId: number, tx: Transaction): Promise<LockedSettings | undefined> {
    const [row] = await tx.$queryRaw<LockedSettings[]>`
        SELECT u.settings, r.user_settings_defaults AS defaults
        FROM users u JOIN realms r ON r.id = u.realm_id
        WHERE u.id = ${userId} AND u.realm_id = ${realmId}
        FOR UPDATE OF u`;
    return row;
  }

  /** The caller's own settings, defaults, full name and time zone, their row locked (PATCH /settings). */
  async lockOwn(userId: number, tx: Transaction): Promise<LockedSettings & { fullName: string; timezone: string }> {
    const [row] = await tx.$queryRaw<(LockedSettings & { fullName: string; timezone: string })[]>`
        SELECT u.settings, r.user_settings_defaults AS defaults, u.full_name AS "fullName", u.timezone
        FROM users u JOIN realms r ON r.id = u.realm_id
        WHERE u.id = ${userId} FOR UPDATE OF u`;
    return row;
  }

  /** Stores the user's settings, and their full name and time zone when given. */
  async save(userId: number, changes: { settings: object; fullName?: string; timezone?: string }, tx: Transaction): Promise<void> {
    await tx.user.update({ where: { id: userId }, data: { ...changes, settings: changes.settings as Prisma.InputJsonObject } });
  }

  /** The organization's stored defaults (only the keys an administrator set), its row locked. */
  async lockRealmDefaults(realmId: number, tx: Transaction): Promise<unknown> {
    const [row] = await tx.$queryRaw<{ defaults: unknown }[]>`
        SELECT user_settings_defaults AS defaults FROM realms WHERE id = ${realmId} FOR UPDATE`;
    return row.defaults;
  }

  /**
   * Writes `previous` (the defaults' old values) into every user of the organization whose
   * stored settings lack one of `names`; existing users' stored values win (jsonb `||` keeps
   * the right side's keys).
   */
  async keepForExistingUsers(realmId: number, previous: Record<string, unknown>, names: string[], tx: Transaction): Promise<void> {
    await tx.$executeRaw`
        UPDATE users SET settings = ${JSON.stringify(previous)}::jsonb || settings
        WHERE realm_id = ${realmId} AND NOT (settings ?& ${names}::text[])`;
  }

  async setRealmDefaults(realmId: number, defaults: object, tx: Transaction): Promise<void> {
    await tx.realm.update({ where: { id: realmId }, data: { userSettingsDefaults: defaults } });
  }
}
