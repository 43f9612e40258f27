import { Inject, Injectable } from '@nestjs/common';
import { MessagingEvents, clientEventSchema } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { APP_CONFIG, EventConsumers, LOGGER, type AppConfig, type ConsumedEvents, type Delivery } from '@teamchat/platform';
import { Role } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { OrganizationsRepository } from '../data/organizations.repository';
import type { PgTransaction } from '../data/transactions';
import { UserAccessReadonlyRepository } from '../data/user-access.readonly.repository';
import { UsersRepository } from '../data/users.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { realmUserEvent, type ClientAnnouncement } from './user-admin-events';
import { UNKNOWN_USER_NAME, toUserRecord } from './user-record';

const CONSUMER = 'users-groups-subscription-access';

type Pair = { viewer: number; hidden: number };

/**
 * Who a guest may see changes with their channels (can_access_all_users_group, see UserAccess):
 * when a user joins channels, the guests who see someone new through them get that person's
 * `realm_user` add; when a user leaves channels, those who no longer see someone get
 * `realm_user` remove with Zulip's "Unknown user" name (Zulip's
 * send_user_creation_events_on_adding_subscriptions and
 * send_user_remove_events_on_removing_subscriptions). Both ways: a guest who joins sees the
 * channel's members, and the members who are guests see them. Read from messaging's
 * `subscription` add and remove events by a durable JetStream consumer the replicas share,
 * after the change committed: who was hidden before a join is the same statement with the
 * join left out; a leave ended a shared channel, so whoever is hidden now lost sight. Nothing
 * is announced in an organization that lets everyone see everyone (asked first, in one read).
 */
@Injectable()
export class SubscriptionAccessConsumer extends EventConsumers {
  constructor(
    private readonly access: UserAccessReadonlyRepository,
    private readonly users: UsersRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly realms: RealmDirectory,
    private readonly outbox: EventOutbox,
    @Inject(APP_CONFIG) protected readonly config: AppConfig,
    @Inject(LOGGER) protected readonly logger: Logger,
  ) {
    super();
  }

  protected consumedEvents(): ConsumedEvents {
    return [{ name: CONSUMER, subject: MessagingEvents.subscriptionChanged.subject, handle: (payload, delivery) => this.handle(payload, delivery) }];
  }

  /** Once per event: a redelivery of one already handled announces nothing again. */
  async handle(payload: unknown, delivery: Delivery): Promise<void> {
    const parsed = clientEventSchema.safeParse(payload);
    if (!parsed.success) return;
    const { realmId, users, event } = parsed.data;
    // The add and remove events go to the user who joined or left, one user each.
    if (event.type !== 'subscription' || (event.op !== 'add' && event.op !== 'remove') || users.length !== 1) return;
    const channelIds = (event.subscriptions as { stream_id?: unknown }[] | undefined)?.map((s) => s.stream_id).filter((id): id is number => typeof id === 'number') ?? [];
    if (channelIds.length === 0) return;
    const [userId] = users;
    await this.outbox.runOnce({ consumer: CONSUMER, eventKey: delivery.key }, async (tx) => ({
      value: undefined,
      events: await this.announcements(realmId, userId, event.op as 'add' | 'remove', channelIds, tx),
    }));
  }

  private async announcements(realmId: number, userId: number, op: 'add' | 'remove', channelIds: number[], tx: PgTransaction): Promise<ClientAnnouncement[]> {
    // Most organizations hide nobody: one cheap read, not the channels' subscribers per joining user.
    if (!(await this.access.restrictsGuests(realmId, tx))) return [];
    const people = [...new Set([userId, ...(await this.access.subscribersOf(channelIds, tx))])];
    const involving = (pair: Pair) => pair.viewer === userId || pair.hidden === userId;
    const hiddenNow = (await this.access.pairsAmong(realmId, people, null, tx)).filter(involving);
    if (op === 'remove') {
      return [...byHidden(hiddenNow)].map(([hidden, viewers]) => realmUserEvent(realmId, viewers, 'remove', { user_id: hidden, full_name: UNKNOWN_USER_NAME }));
    }
    const stillHidden = new Set(hiddenNow.map(keyOf));
    const before = await this.access.pairsAmong(realmId, people, { userId, channelIds }, tx);
    const gained = before.filter((pair) => involving(pair) && !stillHidden.has(keyOf(pair)));
    if (gained.length === 0) return [];
    const realmHost = this.realms.hostnameOf((await this.organizations.subdomainOf(realmId)) ?? '');
    const viewersOf = byHidden(gained);
    // The people seen now, in one read; their viewers are guests, all alike in what a record shows them.
    return (await this.users.ofRealmByIds(realmId, [...viewersOf.keys()], tx)).map((row) => {
      const viewers = viewersOf.get(row.id)!;
      return realmUserEvent(realmId, viewers, 'add', toUserRecord(row, { viewer: { id: viewers[0], role: Role.GUEST }, realmHost, clientGravatar: false }));
    });
  }
}

const keyOf = (pair: Pair): string => `${pair.viewer}:${pair.hidden}`;

/** Each hidden person with the viewers of the pairs, in id order. */
function byHidden(pairs: Pair[]): Map<number, number[]> {
  const grouped = new Map<number, number[]>();
  for (const { viewer, hidden } of pairs) {
    const viewers = grouped.get(hidden);
    if (viewers) viewers.push(viewer);
    else grouped.set(hidden, [viewer]);
  }
  for (const viewers of grouped.values()) viewers.sort((a, b) => a - b);
  return grouped;
}
