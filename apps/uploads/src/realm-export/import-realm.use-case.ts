import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { UsersGroups } from '@teamchat/contracts';
import { userAvatarPath } from '@teamchat/zulip';
import type { JsonRow } from '../data/organization-data.readonly.repository';
import { OrganizationImportRepository, type ImportTransaction, type ImportedTable } from '../data/organization-import.repository';
import { FileStorage } from '../storage/file-storage';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, MANIFEST, archiveEntries, readAll, type ArchivedFile, type Manifest } from './export-archive';

/** An archive or a request the import refuses (the command line prints it). */
export class ImportError extends Error {}

/** Zulip's subdomain rules (check_subdomain_available, the format part): lower-case letters, digits and inner hyphens. */
const SUBDOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?)?$/;
/** Zulip's custom profile field type "users": its value is a JSON list of user ids. */
const USER_FIELD = 6;

const apiKey = () => randomBytes(24).toString('base64').replace(/[^A-Za-z0-9]/g, '').padEnd(32, 'x').slice(0, 32);

/** Old id → new id, per table; an id it does not know maps to null. */
class IdMap {
  private readonly ids = new Map<number, number>();
  set(old: number, id: number): void {
    this.ids.set(old, id);
  }
  get(old: unknown): number | null {
    return old === null || old === undefined ? null : (this.ids.get(Number(old)) ?? null);
  }
  has(old: unknown): boolean {
    return this.ids.has(Number(old));
  }
  static of(rows: JsonRow[], ids: number[]): IdMap {
    const map = new IdMap();
    rows.forEach((row, i) => map.set(Number(row.id), ids[i]));
    return map;
  }
}

const isGroupSetting = (column: string) => /^can_\w+_id$/.test(column);
const isChannelSetting = (column: string) => /_(channel|stream)_id$/.test(column);

/**
 * Loads an organization export (zerver/lib/import_realm.py do_import_realm) into a database
 * that has no organization of the subdomain: every row gets a new id (references remapped),
 * storage keys and the URLs in messages move to the new organization's id, files go into the
 * storage, and every user gets a new API key (passwords are never exported: users set new
 * ones). One pass over the archive (its manifest first); the rows in one transaction; if that
 * fails, the files written are removed.
 */
export class ImportRealm {
  constructor(
    private readonly repository: OrganizationImportRepository,
    private readonly storage: FileStorage,
  ) {}

  async execute(archive: Readable, options: { subdomain?: string }) {
    let manifest: Manifest | undefined;
    const batches: { messages: JsonRow[]; user_messages: JsonRow[]; reactions: JsonRow[] }[] = [];
    const written: string[] = [];
    let plan: Plan | undefined;
    try {
      for await (const entry of archiveEntries(archive)) {
        if (!manifest) {
          if (entry.name !== MANIFEST) throw new ImportError(`Not an organization export: its first entry is ${entry.name}, not ${MANIFEST}`);
          manifest = parseManifest(await readAll(entry.body));
          plan = await this.plan(manifest, options.subdomain);
          continue;
        }
        if (manifest.message_files.includes(entry.name)) {
          batches.push(JSON.parse((await readAll(entry.body)).toString('utf8')));
          continue;
        }
        const file = manifest.files.find((f) => f.archive === entry.name);
        const key = file && plan!.keyOf(file);
        if (!key) {
          entry.body.resume();
          continue;
        }
        await this.storage.write(key, entry.body, 'application/octet-stream');
        written.push(key);
      }
      if (!manifest || !plan) throw new ImportError('Not an organization export: the archive is empty');
      const messages = batches.flatMap((b) => b.messages);
      const counts = await this.load(plan, manifest, batches, await this.repository.allocateIds('messages', messages.length));
      return { realm_id: plan.realmId, subdomain: plan.subdomain, ...counts, files: written.length };
    } catch (error) {
      await Promise.all(written.map((key) => this.storage.delete(key).catch(() => undefined)));
      throw error;
    }
  }

  /** Checks the subdomain and allocates the new ids of everything but messages (known once they are read). */
  private async plan(manifest: Manifest, subdomainOption: string | undefined): Promise<Plan> {
    const [realm] = manifest.tables.realms ?? [];
    if (!realm) throw new ImportError('The export holds no organization');
    const subdomain = (subdomainOption ?? String(realm.subdomain)).toLowerCase();
    if (!SUBDOMAIN.test(subdomain)) throw new ImportError(`Invalid subdomain '${subdomain}'`);
    if (await this.repository.subdomainTaken(subdomain)) throw new ImportError(`An organization with subdomain '${subdomain}' already exists`);
    const t = manifest.tables;
    const table = (name: string) => t[name] ?? [];
    const allocate = async (name: ImportedTable, rows: JsonRow[]) => IdMap.of(rows, await this.repository.allocateIds(name, rows.length));
    const [realmId] = await this.repository.allocateIds('realms', 1);
    return new Plan(manifest.realm_id, realmId, subdomain, {
      users: await allocate('users', table('users')),
      groups: await allocate('user_groups', table('user_groups').filter((g) => !g.is_system_group)),
      profileFields: await allocate('custom_profile_fields', table('custom_profile_fields')),
      emoji: await allocate('realm_emoji', table('realm_emoji')),
      folders: await allocate('channel_folders', table('channel_folders')),
      streams: await allocate('streams', table('streams')),
      dmGroups: await allocate('direct_message_groups', table('direct_message_groups')),
      attachments: await allocate('attachments', table('attachments')),
    });
  }

  private async load(plan: Plan, manifest: Manifest, batches: { messages: JsonRow[]; user_messages: JsonRow[]; reactions: JsonRow[] }[], messageIds: number[]) {
    const t = (name: string) => manifest.tables[name] ?? [];
    const messages = batches.flatMap((b) => b.messages);
    const m = plan.maps;
    const messageMap = IdMap.of(messages, messageIds);
    // Old message ids in order, for "the newest exported message at or before" (a subscription's start).
    const sortedOld = messages.map((row) => Number(row.id)).sort((a, b) => a - b);
    const atOrBefore = (old: unknown) => {
      let lo = 0, hi = sortedOld.length - 1, found = 0;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (sortedOld[mid] <= Number(old)) (found = messageMap.get(sortedOld[mid])!), (lo = mid + 1);
        else hi = mid - 1;
      }
      return found;
    };
    const { realmId } = plan;
    const [realm] = t('realms');

    await this.repository.run(async (tx) => {
      const realmSettings: JsonRow = {};
      const realmRow: JsonRow = { ...realm, id: realmId, subdomain: plan.subdomain };
      for (const column of Object.keys(realm)) {
        if (isGroupSetting(column) || isChannelSetting(column)) {
          realmSettings[column] = realm[column];
          realmRow[column] = null;
        }
      }
      await tx.insert('realms', [realmRow]);
      const groups = await this.groupMap(tx, realmId, t('user_groups'), m.groups);
      const users = t('users').map((u) => ({ ...u, id: m.users.get(u.id), realm_id: realmId, bot_owner_id: m.users.get(u.bot_owner_id) }));
      await tx.insert('users', users);
      await tx.insert('api_keys', users.map((u) => ({ user_id: u.id, key: apiKey() })));

      const remapSettings = (row: JsonRow, map: (old: unknown) => number | null, test: (column: string) => boolean) =>
        Object.fromEntries(Object.entries(row).map(([column, value]) => [column, test(column) ? map(value) : value]));
      await tx.insert(
        'user_groups',
        t('user_groups')
          .filter((g) => !g.is_system_group)
          .map((g) => ({ ...remapSettings(g, (v) => groups.get(v), isGroupSetting), id: groups.get(g.id), realm_id: realmId, creator_id: m.users.get(g.creator_id) })),
      );
      await tx.insert(
        'user_group_members',
        t('user_group_members')
          .filter((r) => groups.has(r.group_id) && m.users.has(r.user_id))
          .map((r) => ({ group_id: groups.get(r.group_id), user_id: m.users.get(r.user_id) })),
        { ignoreConflicts: true },
      );
      await tx.insert(
        'user_group_subgroups',
        t('user_group_subgroups')
          .filter((r) => groups.has(r.supergroup_id) && groups.has(r.subgroup_id))
          .map((r) => ({ supergroup_id: groups.get(r.supergroup_id), subgroup_id: groups.get(r.subgroup_id) })),
        { ignoreConflicts: true },
      );

      await tx.insert('custom_profile_fields', t('custom_profile_fields').map((f) => ({ ...f, id: m.profileFields.get(f.id), realm_id: realmId })));
      const userFields = new Set(t('custom_profile_fields').filter((f) => Number(f.field_type) === USER_FIELD).map((f) => Number(f.id)));
      const valueIds = await this.repository.allocateIds('custom_profile_field_values', t('custom_profile_field_values').length);
      await tx.insert(
        'custom_profile_field_values',
        t('custom_profile_field_values').map((v, i) => ({
          ...v,
          id: valueIds[i],
          user_id: m.users.get(v.user_id),
          field_id: m.profileFields.get(v.field_id),
          value: userFields.has(Number(v.field_id)) ? remapUserList(String(v.value), m.users) : v.value,
        })),
      );
      await tx.insert('realm_emoji', t('realm_emoji').map((e) => ({ ...e, id: m.emoji.get(e.id), realm_id: realmId, author_id: m.users.get(e.author_id) })));
      await tx.insert('channel_folders', t('channel_folders').map((f) => ({ ...f, id: m.folders.get(f.id), realm_id: realmId, creator_id: m.users.get(f.creator_id) })));
      await tx.insert(
        'streams',
        t('streams').map((s) => ({
          ...remapSettings(s, (v) => groups.get(v), isGroupSetting),
          id: m.streams.get(s.id),
          realm_id: realmId,
          creator_id: m.users.get(s.creator_id),
          folder_id: m.folders.get(s.folder_id),
          first_message_id: messageMap.get(s.first_message_id),
        })),
      );
      await tx.updateRealm(realmId, {
        ...remapSettings(realmSettings, (v) => groups.get(v), isGroupSetting),
        ...remapSettings(
          Object.fromEntries(Object.entries(realmSettings).filter(([c]) => isChannelSetting(c))),
          (v) => m.streams.get(v),
          isChannelSetting,
        ),
      });
      const subscriptions = t('subscriptions').filter((s) => m.users.has(s.user_id) && m.streams.has(s.stream_id));
      const subscriptionIds = await this.repository.allocateIds('subscriptions', subscriptions.length);
      await tx.insert(
        'subscriptions',
        subscriptions.map((s, i) => ({
          ...s,
          id: subscriptionIds[i],
          user_id: m.users.get(s.user_id),
          stream_id: m.streams.get(s.stream_id),
          subscribed_after_message_id: atOrBefore(s.subscribed_after_message_id),
        })),
      );
      await tx.insert(
        'direct_message_groups',
        t('direct_message_groups').map((g) => {
          const members = (g.member_ids as number[]).map((id) => m.users.get(id)).filter((id): id is number => id !== null).sort((a, b) => a - b);
          return { ...g, id: m.dmGroups.get(g.id), realm_id: realmId, member_ids: members, member_key: members.join(',') };
        }),
      );
      for (const name of ['realm_linkifiers', 'realm_playgrounds'] as const) {
        const ids = await this.repository.allocateIds(name, t(name).length);
        await tx.insert(name, t(name).map((row, i) => ({ ...row, id: ids[i], realm_id: realmId })));
      }

      const rewrite = plan.rewriter(m.users, m.streams);
      await tx.insert(
        'messages',
        messages.map((row) => ({
          ...row,
          id: messageMap.get(row.id),
          realm_id: realmId,
          sender_id: m.users.get(row.sender_id),
          stream_id: m.streams.get(row.stream_id),
          dm_group_id: m.dmGroups.get(row.dm_group_id),
          scheduled_message_id: null,
          content: rewrite.content(String(row.content)),
          rendered_content: rewrite.rendered(String(row.rendered_content)),
          edit_history: remapEditHistory(row.edit_history, m.users, m.streams),
        })),
      );
      const flags = batches.flatMap((b) => b.user_messages).filter((r) => m.users.has(r.user_id) && messageMap.has(r.message_id));
      await tx.insert('user_messages', flags.map((r) => ({ ...r, user_id: m.users.get(r.user_id), message_id: messageMap.get(r.message_id) })));
      const reactions = batches.flatMap((b) => b.reactions).filter((r) => m.users.has(r.user_id) && messageMap.has(r.message_id));
      const reactionIds = await this.repository.allocateIds('reactions', reactions.length);
      await tx.insert(
        'reactions',
        reactions.map((r, i) => ({
          ...r,
          id: reactionIds[i],
          user_id: m.users.get(r.user_id),
          message_id: messageMap.get(r.message_id),
          emoji_code: r.reaction_type === 'realm_emoji' ? String(m.emoji.get(r.emoji_code) ?? r.emoji_code) : r.emoji_code,
        })),
      );
      const attachments = t('attachments').filter((a) => m.users.has(a.owner_id));
      await tx.insert(
        'attachments',
        attachments.map((a) => ({ ...a, id: m.attachments.get(a.id), realm_id: realmId, owner_id: m.users.get(a.owner_id), path_id: plan.pathId(String(a.path_id)) })),
      );
      await tx.insert(
        'attachment_messages',
        t('attachment_messages')
          .filter((r) => m.attachments.has(r.attachment_id) && messageMap.has(r.message_id))
          .map((r) => ({ ...r, attachment_id: m.attachments.get(r.attachment_id), message_id: messageMap.get(r.message_id) })),
      );
    });
    return { users: t('users').length, channels: t('streams').length, messages: messages.length };
  }

  /** Every group's new id: system groups by name (the database made them with the organization), the others as allocated. */
  private async groupMap(tx: ImportTransaction, realmId: number, rows: JsonRow[], allocated: IdMap): Promise<IdMap> {
    const system = await tx.systemGroups(realmId);
    const map = new IdMap();
    for (const row of rows) {
      const id = row.is_system_group ? system.get(String(row.name)) : allocated.get(row.id);
      if (id !== undefined && id !== null) map.set(Number(row.id), id);
    }
    return map;
  }
}

/** The new organization's ids and keys: what the files and messages of the old one become. */
class Plan {
  constructor(
    readonly oldRealmId: number,
    readonly realmId: number,
    readonly subdomain: string,
    readonly maps: Record<'users' | 'groups' | 'profileFields' | 'emoji' | 'folders' | 'streams' | 'dmGroups' | 'attachments', IdMap>,
  ) {}

  /** An attachment's path id (and storage key) in the new organization: its first segment is the organization's id. */
  pathId(old: string): string {
    return `${this.realmId}/${old.slice(old.indexOf('/') + 1)}`;
  }

  /** Where an archived file goes in the storage; null for one that belongs to nothing imported. */
  keyOf(file: ArchivedFile): string | null {
    if (file.kind === 'attachment') return this.pathId(file.path_id);
    if (file.kind === 'emoji') return this.maps.emoji.has(file.emoji_id) ? `avatars/${UsersGroups.customEmojiPath(this.realmId, file.file)}` : null;
    const user = this.maps.users.get(file.user_id);
    return user === null ? null : `avatars/${userAvatarPath(user, this.realmId)}${file.suffix}`;
  }

  /** Message text names the organization in file and emoji URLs, and rendered mentions name users and channels by id. */
  rewriter(users: IdMap, streams: IdMap) {
    const content = (text: string) =>
      text.split(`/user_uploads/${this.oldRealmId}/`).join(`/user_uploads/${this.realmId}/`).split(`/user_avatars/${this.oldRealmId}/`).join(`/user_avatars/${this.realmId}/`);
    return {
      content,
      rendered: (html: string) =>
        content(html)
          .replace(/data-user-id="(\d+)"/g, (whole, id: string) => (users.has(id) ? `data-user-id="${users.get(id)}"` : whole))
          .replace(/data-stream-id="(\d+)"/g, (whole, id: string) => (streams.has(id) ? `data-stream-id="${streams.get(id)}"` : whole)),
    };
  }
}

function parseManifest(data: Buffer): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(data.toString('utf8'));
  } catch {
    throw new ImportError(`${MANIFEST} is not valid JSON`);
  }
  if (manifest?.format !== ARCHIVE_FORMAT) throw new ImportError('Not an organization export of this server');
  if (manifest.version !== ARCHIVE_VERSION) throw new ImportError(`Unsupported export version ${manifest.version}`);
  return manifest;
}

function remapUserList(value: string, users: IdMap): string {
  try {
    const ids = JSON.parse(value);
    return Array.isArray(ids) ? JSON.stringify(ids.map((id) => users.get(id)).filter((id) => id !== null)) : value;
  } catch {
    return value;
  }
}

/** An edit history entry names the editor and, for moves, channels. */
function remapEditHistory(history: unknown, users: IdMap, streams: IdMap): unknown {
  if (!Array.isArray(history)) return history ?? null;
  return history.map((entry: Record<string, unknown>) => ({
    ...entry,
    ...('user_id' in entry ? { user_id: users.get(entry.user_id) } : {}),
    ...('stream' in entry ? { stream: streams.get(entry.stream) } : {}),
    ...('prev_stream' in entry ? { prev_stream: streams.get(entry.prev_stream) } : {}),
  }));
}
