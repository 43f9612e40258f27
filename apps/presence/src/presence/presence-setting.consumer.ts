import { Inject, Injectable } from '@nestjs/common';
import { UsersGroupsEvents, clientEventSchema } from '@teamchat/contracts';
import { APP_CONFIG, EventConsumers, LOGGER, type AppConfig, type ConsumedEvents } from '@teamchat/platform';
import type { Logger } from 'pino';
import { RealmsReadonlyRepository } from '../data/realms.readonly.repository';
import { PresenceAnnouncer } from './presence-announcer';
import { PresencePeople } from './presence-people';
import { PRESENCE } from './presence.settings';
import { PresenceStore } from './presence.store';

const CONSUMER = 'presence-setting-changes';

/**
 * Zulip's do_change_user_setting for presence_enabled: when a user turns presence on, they are
 * recorded active now; when they turn it off, their presence is replaced by an idle entry of the
 * offline threshold and two minutes ago, never active (Zulip deletes the row and makes that one). Either way the organization is told at once, whatever
 * its size. Read from users-groups' `user_settings` events by a durable JetStream consumer the
 * presence replicas share; reads leave out users with presence off, so the entry written on
 * turning it off reaches clients only through the event.
 */
@Injectable()
export class PresenceSettingConsumer extends EventConsumers {
  constructor(
    private readonly realms: RealmsReadonlyRepository,
    private readonly store: PresenceStore,
    private readonly people: PresencePeople,
    private readonly announcer: PresenceAnnouncer,
    @Inject(APP_CONFIG) protected readonly config: AppConfig,
    @Inject(LOGGER) protected readonly logger: Logger,
  ) {
    super();
  }

  protected consumedEvents(): ConsumedEvents {
    return [{ name: CONSUMER, subject: UsersGroupsEvents.userSettingsChanged.subject, handle: (payload) => this.handle(payload) }];
  }

  async handle(payload: unknown): Promise<void> {
    const parsed = clientEventSchema.safeParse(payload);
    if (!parsed.success) return;
    const { realmId, users, event } = parsed.data;
    if (event.type !== 'user_settings' || event.property !== 'presence_enabled' || typeof event.value !== 'boolean') return;
    const subdomain = await this.realms.subdomain(realmId);
    if (subdomain === null) return;
    const root = new URL(this.config.EXTERNAL_URL).hostname;
    const host = subdomain ? `${subdomain}.${root}` : root;
    const people = await this.people.activeHumans({ id: realmId, host }, users);
    const now = Math.floor(Date.now() / 1000);
    for (const person of people.values()) {
      const entry = event.value
        ? (await this.store.update(realmId, person.id, now, true)).entry
        : await this.store.setAt(realmId, person.id, 0, now - PRESENCE.offlineThresholdSeconds - 120);
      await this.announcer.announce(realmId, person, entry, `presence-setting-${person.id}`, { force: true });
    }
  }
}
