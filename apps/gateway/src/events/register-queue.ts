import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Presence, Realtime, type AuthUser, type RealmRef } from '@teamchat/contracts';
import { APP_CONFIG, CommandClient, EventBus, type AppConfig, type CommandTime } from '@teamchat/platform';
import { EMPTY_TOPIC_DISPLAY_NAME, LIMITS, Role, badRequest, ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION, type DecodedParams } from '@teamchat/zulip';
import { EventQueueStore, MAX_LIFESPAN_SECONDS } from './event-queue.store';
import { checkEventNarrow } from './message-narrow';
import type { QueueDescriptor } from './queue-descriptor';
import { RegisterPeople } from './register-people';

type RegisterParams = DecodedParams<typeof Realtime.registerParams>;

/** Zulip's MAX_BULK_NEW_SUBSCRIPTION_MESSAGES. */
const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

/** POST /register's answer: the state, and keys whose values are JSON texts already (spliced in as they are). */
export interface Registered {
  state: Record<string, unknown>;
  serialized: Record<string, string>;
}

/**
 * POST /register: creates the queue first, then reads the initial state from its owners, so
 * a change made meanwhile is in the state, in the queue, or in both (clients apply events
 * idempotently), never in neither. A change announced before the queue existed is in the state
 * only: the queue remembers the event stream's position (QueueDescriptor.registeredAt). The people come from the gateway's own cache
 * (RegisterPeople), at least as new as the queue.
 */
@Injectable()
export class RegisterQueue {
  constructor(
    private readonly store: EventQueueStore,
    private readonly commands: CommandClient,
    private readonly people: RegisterPeople,
    private readonly events: EventBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `within`: the request's time, which its calls share (see callerTime). */
  async register(realm: RealmRef, user: AuthUser, params: RegisterParams, requestId: string, within?: CommandTime): Promise<Registered> {
    // Zulip's can_access_public_streams: guests may not follow every public channel.
    if (params.all_public_streams && user.role === Role.GUEST) throw badRequest('User not authorized for this query');
    checkEventNarrow(params.narrow);
    const eventTypes = params.event_types ?? null;
    const fetchEventTypes = params.fetch_event_types !== undefined ? params.fetch_event_types : eventTypes;
    const requested = params.queue_lifespan_secs || this.config.EVENT_QUEUE_TIMEOUT_SECONDS;
    const descriptor: QueueDescriptor = {
      queueId: randomUUID(),
      realmId: realm.id,
      userId: user.id,
      eventTypes,
      narrow: params.narrow,
      applyMarkdown: params.apply_markdown,
      clientGravatar: params.client_gravatar,
      allPublicStreams: params.all_public_streams,
      capabilities: params.client_capabilities,
      lifespanSeconds: Math.max(this.config.EVENT_QUEUE_TIMEOUT_SECONDS, Math.min(requested, MAX_LIFESPAN_SECONDS)),
      // Unknown (JetStream not answering): the queue takes every event, as before this check existed.
      registeredAt: await this.events.position().catch(() => undefined),
    };
    const stateVersion = await this.store.create(descriptor);

    const request: Realtime.RegisterStateRequest = {
      realm,
      user,
      fetchEventTypes,
      clientGravatar: params.client_gravatar,
      includeSubscribers: params.include_subscribers,
      capabilities: params.client_capabilities,
      slimPresence: params.slim_presence,
      presenceHistoryLimitDays: params.presence_history_limit_days ?? null,
      requestId,
    };
    try {
      const [parts, people] = await Promise.all([
        Promise.all([
          this.commands.call(Realtime.registerState.usersGroups, request, { within }),
          this.commands.call(Realtime.registerState.messaging, request, { within }),
          this.commands.call(Realtime.registerState.presence, request, { within }),
          this.commands.call(Realtime.registerState.scheduler, request, { within }),
          this.commands.call(Realtime.registerState.push, request, { within }),
        ]),
        Realtime.wants(request, 'realm_user') ? this.people.of(realm, user, { clientGravatar: params.client_gravatar, userListIncomplete: params.client_capabilities.user_list_incomplete === true }, stateVersion, requestId, within) : undefined,
      ]);
      const state = {
        queue_id: descriptor.queueId,
        last_event_id: -1,
        zulip_feature_level: ZULIP_FEATURE_LEVEL,
        zulip_version: ZULIP_VERSION,
        zulip_merge_base: ZULIP_MERGE_BASE,
        ...Object.assign({}, ...parts),
        ...joinedPermissionSettings(parts),
        ...(Realtime.wants(request, 'realm') ? { ...realmConstants(realm, this.config), ...callerPermissions(user) } : {}),
        ...defaultsUntilFeature(request),
        ...(people ? { cross_realm_bots: [] } : {}),
      };
      // The caller's own record shows their delivery_email, which users-groups' part carries.
      return { state, serialized: people ? people.withOwnRecord(user.id, String(state.delivery_email)) : {} };
    } catch (error) {
      await this.store.delete(descriptor).catch(() => undefined);
      throw error;
    }
  }
}

/**
 * The `realm` keys the gateway knows itself: the server's limits, the organization's URL, and
 * the organization settings of features to come (REALM_DEFAULTS_UNTIL_FEATURE). Its name is
 * users-groups' (the stored one, which PATCH /realm changes).
 */
function realmConstants(realm: RealmRef, config: AppConfig): Record<string, unknown> {
  return {
    ...Realtime.REALM_DEFAULTS_UNTIL_FEATURE,
    /** Mobile push works when a push relay is configured (Zulip: when it uses the bouncer). */
    realm_push_notifications_enabled: config.PUSH_RELAY_URL !== '',
    realm_url: realm.url,
    realm_uri: realm.url,
    realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
    /** Bots' addresses end with the organization's host name. */
    realm_bot_domain: new URL(realm.url).hostname,
    realm_upload_quota_mib: config.REALM_UPLOAD_QUOTA_MIB > 0 ? config.REALM_UPLOAD_QUOTA_MIB : null,
    server_emoji_data_url: new URL('/static/generated/emoji/emoji_api_data.json', config.EXTERNAL_URL).href,
    max_message_length: LIMITS.maxMessageLength,
    max_topic_length: LIMITS.maxTopicLength,
    max_stream_name_length: LIMITS.maxStreamNameLength,
    max_stream_description_length: LIMITS.maxStreamDescriptionLength,
    max_channel_folder_name_length: LIMITS.maxChannelFolderNameLength,
    max_channel_folder_description_length: LIMITS.maxChannelFolderDescriptionLength,
    max_file_upload_size_mib: LIMITS.maxFileUploadSizeMib,
    max_avatar_file_size_mib: LIMITS.maxAvatarFileSizeMib,
    max_icon_file_size_mib: LIMITS.maxIconFileSizeMib,
    max_logo_file_size_mib: LIMITS.maxLogoFileSizeMib,
    max_bulk_new_subscription_messages: MAX_BULK_NEW_SUBSCRIPTION_MESSAGES,
    server_typing_started_wait_period_milliseconds: LIMITS.serverTypingStartedWaitPeriodMs,
    server_typing_stopped_wait_period_milliseconds: LIMITS.serverTypingStoppedWaitPeriodMs,
    server_typing_started_expiry_period_milliseconds: LIMITS.serverTypingStartedExpiryPeriodMs,
    event_queue_longpoll_timeout_seconds: LIMITS.eventQueueLongpollTimeoutSeconds,
    // Zulip's presence intervals (PRESENCE_PING_INTERVAL_SECS, OFFLINE_THRESHOLD_SECS).
    server_presence_ping_interval_seconds: Presence.PRESENCE.pingIntervalSeconds,
    server_presence_offline_threshold_seconds: Presence.PRESENCE.offlineThresholdSeconds,
  };
}

/** `server_supported_permission_settings`, whose parts come from users-groups and messaging. */
function joinedPermissionSettings(parts: Record<string, unknown>[]): Record<string, unknown> {
  const pieces = parts.map((part) => part.server_supported_permission_settings).filter((piece) => piece !== undefined);
  return pieces.length > 0 ? { server_supported_permission_settings: Object.assign({}, ...pieces) } : {};
}

/**
 * What the caller may do, by the rules of POST /users/me/subscriptions and POST /channels/create
 * (messaging's channel-creation rule): anyone but a guest creates public and private channels
 * and subscribes others, administrators web-public ones; nobody invites (no invitations yet).
 */
function callerPermissions(user: AuthUser): Record<string, boolean> {
  const member = user.role !== Role.GUEST;
  return {
    can_create_streams: member,
    can_create_public_streams: member,
    can_create_private_streams: member,
    can_create_web_public_streams: user.role <= Role.ADMINISTRATOR,
    can_subscribe_other_users: member,
    can_invite_others_to_realm: false,
  };
}

/**
 * State of features this server does not have yet, at Zulip's values for an organization that
 * does not use them, by the fetch key that asks for it (see docs/architecture.md). Each moves
 * to its owner when the feature comes.
 */
export const DEFAULTS_UNTIL_FEATURE: Record<string, () => Record<string, unknown>> = {
  realm_filters: () => ({ realm_filters: [] }),
  realm_embedded_bots: () => ({ realm_embedded_bots: [] }),
  realm_incoming_webhook_bots: () => ({ realm_incoming_webhook_bots: [] }),
  default_stream_groups: () => ({ realm_default_stream_groups: [] }),
  onboarding_steps: () => ({ onboarding_steps: [], navigation_tour_video_url: null }),
  video_calls: () => ({ has_zoom_token: false }),
};

function defaultsUntilFeature(request: Realtime.RegisterStateRequest): Record<string, unknown> {
  return Object.assign(
    {},
    ...Object.entries(DEFAULTS_UNTIL_FEATURE).map(([fetchKey, state]) => (Realtime.wants(request, fetchKey) ? state() : {})),
  );
}
