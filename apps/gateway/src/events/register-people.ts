import { Inject, Injectable } from '@nestjs/common';
import { EmailVisibility, Realtime, canSeeDeliveryEmail, type AuthUser, type RealmRef, type UserRecord } from '@teamchat/contracts';
import { APP_CONFIG, CommandClient, hiddenFromGuest, type AppConfig, type CommandTime } from '@teamchat/platform';

/** One list of people, serialised: the JSON array's text, and where each record is in it. */
interface PeopleText {
  text: string;
  spans: Map<number, [start: number, end: number]>;
}

/** The organization's people as one class of viewer sees them, serialised once. */
interface People {
  fetchedAt: number;
  active: PeopleText;
  nonActive: PeopleText;
}

/** `realm_users` and `realm_non_active_users` as JSON texts, for a viewer with this delivery_email. */
export interface PeopleLists {
  withOwnRecord(viewerId: number, ownDeliveryEmail: string): { realm_users: string; realm_non_active_users: string };
}

interface OrganizationEntry {
  /** The state version the entry was made at (see EventQueueStore.bumpStateVersions). */
  version: number;
  /** By what the viewer's role may see (visibilityClassOf) and client_gravatar; a promise, so that concurrent registers fetch once. */
  variants: Map<string, Promise<People>>;
}

/**
 * POST /register's `realm_users` and `realm_non_active_users`, served from a per-organization
 * cache: the largest part of the initial state (5 MB at 10,000 users), the same for every
 * viewer of a role but for one's own record. Filled in pages from users-groups (Realtime.registerPeople),
 * kept as JSON text and spliced into the answer as it is.
 *
 * Kept true by the state version: the fan-out bumps it before it appends any users-groups event
 * (a change to the people), and a register reads it in the step that creates its queue. An
 * entry at least as new as that version has every change the queue will not get; an older one
 * is fetched again. Each replica keeps its own.
 */
@Injectable()
export class RegisterPeople {
  private readonly organizations = new Map<number, OrganizationEntry>();

  constructor(
    private readonly commands: CommandClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The organization's people as this viewer sees them, at least as new as `version`: the two
   * lists' texts, given the viewer's own delivery_email (the one difference between viewers of a role).
   */
  async of(
    realm: RealmRef,
    viewer: AuthUser,
    { clientGravatar, userListIncomplete }: { clientGravatar: boolean; userListIncomplete: boolean },
    version: number,
    requestId: string,
    within?: CommandTime,
  ): Promise<PeopleLists> {
    // Those can_access_all_users_group hides from a guest, asked beside the cache.
    const [cached, hidden] = await Promise.all([
      this.people(realm, viewer.role, clientGravatar, version, requestId, within),
      hiddenFromGuest(this.commands, realm, viewer, requestId, { within }),
    ]);
    const people = hidden.length > 0 ? withoutHidden(cached, hidden, !userListIncomplete) : cached;
    return {
      withOwnRecord: (viewerId, ownDeliveryEmail) => ({
        realm_users: withOwnRecord(people.active, viewerId, ownDeliveryEmail),
        realm_non_active_users: people.nonActive.text,
      }),
    };
  }

  private async people(realm: RealmRef, viewerRole: number, clientGravatar: boolean, version: number, requestId: string, within?: CommandTime): Promise<People> {
    const { variants } = this.entryAt(realm.id, version);
    const key = `${visibilityClassOf(viewerRole)}:${clientGravatar}`;
    const pending = variants.get(key);
    if (pending) {
      const people = await pending.catch(() => undefined);
      if (people && Date.now() - people.fetchedAt < this.config.REGISTER_CACHE_MAX_AGE_SECONDS * 1000) return people;
      // Failed or too old: fetched again, by this register unless another began meanwhile.
      if (variants.get(key) !== pending) return this.people(realm, viewerRole, clientGravatar, version, requestId, within);
    }
    const fetching = this.fetch(realm, viewerRole, clientGravatar, requestId, within);
    variants.set(key, fetching);
    fetching.catch(() => variants.get(key) === fetching && variants.delete(key));
    return fetching;
  }

  /** The organization's entry, made anew when older than `version`; the least recently used goes past the limit. */
  private entryAt(realmId: number, version: number): OrganizationEntry {
    const kept = this.organizations.get(realmId);
    const entry = kept && kept.version >= version ? kept : { version, variants: new Map<string, Promise<People>>() };
    this.organizations.delete(realmId);
    this.organizations.set(realmId, entry);
    if (this.organizations.size > this.config.REGISTER_CACHE_ORGANIZATIONS) this.organizations.delete(this.organizations.keys().next().value!);
    return entry;
  }

  private async fetch(realm: RealmRef, viewerRole: number, clientGravatar: boolean, requestId: string, within?: CommandTime): Promise<People> {
    const fetchedAt = Date.now();
    const active = new TextBuilder();
    const nonActive = new TextBuilder();
    for (let afterId: number | null = 0; afterId !== null; ) {
      const page: Realtime.RegisterPeoplePage = await this.commands.call(Realtime.registerPeople, {
        realm,
        viewerRole,
        clientGravatar,
        afterId,
        limit: this.config.REGISTER_PEOPLE_PAGE_SIZE,
        requestId,
      }, { within });
      for (const { is_active: isActive, ...record } of page.records) (isActive ? active : nonActive).add(record.user_id as number, JSON.stringify(record));
      afterId = page.next;
    }
    return { fetchedAt, active: active.done(), nonActive: nonActive.done() };
  }
}

/**
 * Which email visibilities a viewer of this role sees past, by the one rule that decides it
 * (canSeeDeliveryEmail): viewers alike in it see the same records of other people.
 */
function visibilityClassOf(role: number): string {
  return Object.values(EmailVisibility)
    .map((visibility) => (canSeeDeliveryEmail({ id: 0, role }, -1, visibility) ? '1' : '0'))
    .join('');
}

/**
 * The lists without the people hidden from the viewer (users-groups' "Unknown user" records of
 * them): left out for a client with `user_list_incomplete`, else (`showUnknown`) each of those
 * records in `realm_users`, active or not (Zulip's placeholder is active), so that nothing about
 * them shows.
 */
function withoutHidden(people: People, hidden: UserRecord[], showUnknown: boolean): People {
  const hiddenIds = new Set(hidden.map((record) => record.user_id));
  const kept = (list: PeopleText) => [...list.spans].filter(([id]) => !hiddenIds.has(id)).map(([id, [start, end]]): [number, string] => [id, list.text.slice(start, end)]);
  // Records in the lists leave out `is_active` (which list they are in says it).
  const unknown = showUnknown ? hidden.map(({ is_active: _active, ...record }): [number, string] => [record.user_id, JSON.stringify(record)]) : [];
  const active = new TextBuilder();
  for (const [id, json] of [...kept(people.active), ...unknown].sort((a, b) => a[0] - b[0])) active.add(id, json);
  const nonActive = new TextBuilder();
  for (const [id, json] of kept(people.nonActive)) nonActive.add(id, json);
  return { fetchedAt: people.fetchedAt, active: active.done(), nonActive: nonActive.done() };
}

/** The list with the viewer's own record showing their delivery_email. */
function withOwnRecord({ text, spans }: PeopleText, viewerId: number, ownDeliveryEmail: string): string {
  const span = spans.get(viewerId);
  if (!span) return text;
  const own = JSON.parse(text.slice(span[0], span[1])) as Record<string, unknown>;
  own.delivery_email = ownDeliveryEmail;
  return `${text.slice(0, span[0])}${JSON.stringify(own)}${text.slice(span[1])}`;
}

class TextBuilder {
  private readonly parts: string[] = [];
  private readonly spans = new Map<number, [number, number]>();
  private length = 1; // the opening bracket

  add(userId: number, json: string): void {
    if (this.parts.length > 0) this.length++; // the comma
    this.spans.set(userId, [this.length, this.length + json.length]);
    this.parts.push(json);
    this.length += json.length;
  }

  done(): PeopleText {
    return { text: `[${this.parts.join(',')}]`, spans: this.spans };
  }
}
