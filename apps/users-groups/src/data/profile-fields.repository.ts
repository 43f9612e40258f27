import { Injectable } from '@nestjs/common';
import { PgService, Prisma, PrismaService, columnsOf, statement, type CustomProfileFieldModel } from '@teamchat/db';
import { onConnection, type PgTransaction, type Transaction } from './transactions';

export interface ProfileFieldRow {
  id: number;
  name: string;
  fieldType: number;
  fieldData: string;
  editableByUser: boolean;
}

/** One user's stored value of one field. */
export interface ProfileValueRow {
  userId: number;
  fieldId: number;
  value: string;
  renderedValue: string | null;
}

/** Custom profile field values of these users. */
const profileFieldValues = statement<ProfileValueRow, [userIds: number[]]>(
  'users_groups.profile_field_values',
  `SELECT user_id AS "userId", field_id AS "fieldId", value, rendered_value AS "renderedValue"
   FROM custom_profile_field_values WHERE user_id = ANY($1::int[])`,
);

/** The organization's custom profile fields, every column, in their order (POST /register, GET /realm/profile_fields). */
const profileFieldsInOrder = statement<CustomProfileFieldModel, [realmId: number]>(
  'users_groups.profile_fields_in_order',
  `SELECT ${columnsOf(Prisma.CustomProfileFieldScalarFieldEnum)} FROM custom_profile_fields WHERE realm_id = $1 ORDER BY "order", id`,
);

/** The organization's custom profile fields among these ids. */
const profileFieldsOfRealm = statement<ProfileFieldRow, [realmId: number, fieldIds: number[]]>(
  'user_admin.profile_fields_of_realm',
  `SELECT id, name, field_type AS "fieldType", field_data AS "fieldData", editable_by_user AS "editableByUser"
   FROM custom_profile_fields WHERE realm_id = $1 AND id = ANY($2::int[])`,
);

/** The user's stored values of these fields. */
const profileValuesOfUser = statement<{ fieldId: number; value: string }, [userId: number, fieldIds: number[]]>(
  'user_admin.profile_values_of_user',
  `SELECT field_id AS "fieldId", value FROM custom_profile_field_values WHERE user_id = $1 AND field_id = ANY($2::int[])`,
);

const upsertProfileValue = statement<never, [userId: number, fieldId: number, value: string, renderedValue: string | null]>(
  'user_admin.upsert_profile_value',
  `INSERT INTO custom_profile_field_values (user_id, field_id, value, rendered_value) VALUES ($1, $2, $3, $4)
   ON CONFLICT (user_id, field_id) DO UPDATE SET value = EXCLUDED.value, rendered_value = EXCLUDED.rendered_value`,
);

const deleteProfileValue = statement<never, [userId: number, fieldId: number]>(
  'user_admin.delete_profile_value',
  `DELETE FROM custom_profile_field_values WHERE user_id = $1 AND field_id = $2`,
);

/**
 * Custom profile fields (`custom_profile_fields`) and users' values of them
 * (`custom_profile_field_values`): values are read with GET /users and written by user
 * administration (pg, in its transaction); the organization's list of fields is read through pg
 * (POST /register), its administration is Prisma's.
 */
@Injectable()
export class ProfileFieldsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** The organization's fields, in their order (inside a Prisma transaction, on its connection). */
  ofRealm(realmId: number, tx?: Transaction): Promise<CustomProfileFieldModel[]> {
    return (tx ? onConnection(tx) : this.pg).run(profileFieldsInOrder, realmId);
  }

  /** The organization's fields among these ids. */
  fieldsOfRealm(realmId: number, fieldIds: number[]): Promise<ProfileFieldRow[]> {
    return this.pg.run(profileFieldsOfRealm, realmId, fieldIds);
  }

  /** Every stored value of these users. */
  valuesOfUsers(userIds: number[]): Promise<ProfileValueRow[]> {
    return this.pg.run(profileFieldValues, userIds);
  }

  /** The user's stored values of these fields. */
  valuesOfUser(userId: number, fieldIds: number[], tx: PgTransaction): Promise<{ fieldId: number; value: string }[]> {
    return tx.run(profileValuesOfUser, userId, fieldIds);
  }

  async setValue(userId: number, fieldId: number, value: string, renderedValue: string | null, tx: PgTransaction): Promise<void> {
    await tx.run(upsertProfileValue, userId, fieldId, value, renderedValue);
  }

  async clearValue(userId: number, fieldId: number, tx: PgTransaction): Promise<void> {
    await tx.run(deleteProfileValue, userId, fieldId);
  }

  // The organization's fields themselves (administration; the ORM).

  find(realmId: number, id: number): Promise<CustomProfileFieldModel | null> {
    return this.prisma.customProfileField.findFirst({ where: { realmId, id } });
  }

  /** How many of the organization's fields are shown in profile summaries, this one aside. */
  countInSummary(realmId: number, exceptId?: number): Promise<number> {
    return this.prisma.customProfileField.count({ where: { realmId, displayInProfileSummary: true, ...(exceptId ? { id: { not: exceptId } } : {}) } });
  }

  /** Adds a field; its order is its id, as Zulip sets it, so it comes last. */
  async create(realmId: number, field: Omit<Prisma.CustomProfileFieldUncheckedCreateInput, 'realmId' | 'order' | 'id'>, tx: Transaction): Promise<CustomProfileFieldModel> {
    const row = await tx.customProfileField.create({ data: { ...field, realmId } });
    return tx.customProfileField.update({ where: { id: row.id }, data: { order: row.id } });
  }

  /** Changes a field; with `removedOptions`, users' values that are among them are deleted too (answered). */
  async update(id: number, change: Prisma.CustomProfileFieldUpdateInput, removedOptions: string[], tx: Transaction): Promise<{ userId: number }[]> {
    const removed =
      removedOptions.length > 0 ? await tx.customProfileFieldValue.findMany({ where: { fieldId: id, value: { in: removedOptions } }, select: { userId: true } }) : [];
    if (removed.length > 0) await tx.customProfileFieldValue.deleteMany({ where: { fieldId: id, value: { in: removedOptions } } });
    await tx.customProfileField.update({ where: { id }, data: change });
    return removed;
  }

  /** Deletes a field and every value of it; false when the organization has none with this id. */
  async delete(realmId: number, id: number, tx: Transaction = this.prisma): Promise<boolean> {
    return (await tx.customProfileField.deleteMany({ where: { realmId, id } })).count > 0;
  }

  /** Gives each field its position in `order` (the caller checked every field is there). */
  async reorder(realmId: number, order: Map<number, number>, tx: Transaction): Promise<void> {
    for (const [id, position] of order) await tx.customProfileField.updateMany({ where: { realmId, id }, data: { order: position } });
  }
}
