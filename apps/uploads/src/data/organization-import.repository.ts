import { Injectable } from '@nestjs/common';
import { PrismaService } from '@teamchat/db';
import type { JsonRow } from './organization-data.readonly.repository';

type Tx = Pick<PrismaService, '$queryRawUnsafe' | '$executeRawUnsafe'>;

/** The tables an import writes, in the order their references need. Names are never taken from an archive. */
export const IMPORTED_TABLES = [
  'realms',
  'users',
  'api_keys',
  'user_groups',
  'user_group_members',
  'user_group_subgroups',
  'custom_profile_fields',
  'custom_profile_field_values',
  'realm_emoji',
  'channel_folders',
  'streams',
  'subscriptions',
  'direct_message_groups',
  'realm_linkifiers',
  'realm_playgrounds',
  'messages',
  'user_messages',
  'reactions',
  'attachments',
  'attachment_messages',
] as const;
export type ImportedTable = (typeof IMPORTED_TABLES)[number];

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
const BATCH = 1000;

/** What an import does inside its one transaction. */
export interface ImportTransaction {
  /** Inserts rows (columns as the archive names them, those the table has; the others take their defaults). */
  insert(table: ImportedTable, rows: JsonRow[], options?: { ignoreConflicts?: boolean }): Promise<void>;
  /** The organization's system groups (created with it by the database), by name. */
  systemGroups(realmId: number): Promise<Map<string, number>>;
  /** Sets some of the organization's columns. */
  updateRealm(realmId: number, values: JsonRow): Promise<void>;
}

/**
 * Writes an organization from an export archive (tools/admin `import-realm`): every table of
 * every service, in one transaction, with ids the import allocated. The one place outside their
 * owners that writes these tables, and only into a new organization (see docs/architecture.md,
 * Organization export and import).
 */
@Injectable()
export class OrganizationImportRepository {
  private readonly columnCache = new Map<string, Set<string>>();

  constructor(private readonly prisma: PrismaService) {}

  async subdomainTaken(subdomain: string): Promise<boolean> {
    const rows = await this.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM realms WHERE lower(subdomain) = lower($1)', subdomain);
    return rows.length > 0;
  }

  /** `count` new ids of the table's sequence, increasing. */
  async allocateIds(table: ImportedTable, count: number): Promise<number[]> {
    if (count === 0) return [];
    const rows = await this.prisma.$queryRawUnsafe<{ id: number }[]>(
      `SELECT nextval(pg_get_serial_sequence($1, 'id'))::int AS id FROM generate_series(1, $2::int) ORDER BY 1`,
      table,
      count,
    );
    return rows.map((row) => row.id);
  }

  async run<T>(work: (tx: ImportTransaction) => Promise<T>): Promise<T> {
    return this.prisma.$transaction((tx) => work(this.transaction(tx)), { maxWait: 10_000, timeout: 30 * 60_000 });
  }

  private transaction(tx: Tx): ImportTransaction {
    return {
      insert: async (table, rows, options = {}) => {
        if (rows.length === 0) return;
        const columns = await this.columnsOf(tx, table);
        const names = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((name) => columns.has(name)).map(quote).join(', ');
        const conflict = options.ignoreConflicts ? ' ON CONFLICT DO NOTHING' : '';
        const text = `INSERT INTO ${quote(table)} (${names}) SELECT ${names} FROM jsonb_populate_recordset(NULL::${quote(table)}, $1::jsonb)${conflict}`;
        for (let i = 0; i < rows.length; i += BATCH) await tx.$executeRawUnsafe(text, JSON.stringify(rows.slice(i, i + BATCH)));
      },
      systemGroups: async (realmId) => {
        const rows = await tx.$queryRawUnsafe<{ id: number; name: string }[]>(
          'SELECT id, name FROM user_groups WHERE realm_id = $1 AND is_system_group',
          realmId,
        );
        return new Map(rows.map((row) => [row.name, row.id]));
      },
      updateRealm: async (realmId, values) => {
        const columns = await this.columnsOf(tx, 'realms');
        const names = Object.keys(values).filter((name) => columns.has(name) && name !== 'id');
        if (names.length === 0) return;
        const sets = names.map((name) => `${quote(name)} = x.${quote(name)}`).join(', ');
        await tx.$executeRawUnsafe(
          `UPDATE realms SET ${sets} FROM jsonb_populate_record(NULL::realms, $2::jsonb) x WHERE realms.id = $1`,
          realmId,
          JSON.stringify(values),
        );
      },
    };
  }

  /** The columns an insert may name (generated ones excluded). */
  private async columnsOf(tx: Tx, table: string): Promise<Set<string>> {
    const cached = this.columnCache.get(table);
    if (cached) return cached;
    const rows = await tx.$queryRawUnsafe<{ name: string }[]>(
      `SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'`,
      table,
    );
    const columns = new Set(rows.map((row) => row.name));
    this.columnCache.set(table, columns);
    return columns;
  }
}
