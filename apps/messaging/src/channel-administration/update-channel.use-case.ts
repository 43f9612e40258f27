import { Injectable } from '@nestjs/common';
import {
  CHANNEL_PERMISSION_SETTING_NAMES,
  UsersGroups,
  type UserCommand,
  type ChannelPermissionSettingName,
  type Messaging,
} from '@teamchat/contracts';
import { EventOutbox, MAX_STORED_ID, type StreamModel } from '@teamchat/db';
import { CommandClient } from '@teamchat/platform';
import { ZulipError, badRequest, isModeratorOrAbove, mustBeOwner, isOwnerRole, type DecodedParams } from '@teamchat/zulip';
import { channelAudience, channelCreated, channelEvent, channelsGone, type PendingEvent } from '../channels/channel-events';
import { renderDescription } from '../channels/channel-description';
import { CHANNEL_PERMISSION_SETTINGS } from '../channels/channel-permission-settings';
import { toChannelRecord, type ChannelStats } from '../channels/channel-record';
import { checkChannelDescription, checkChannelName } from '../channels/channel-rules';
import { ChannelStatsReader } from '../channels/channel-stats';
import { ChannelFoldersRepository } from '../data/channel-folders.repository';
import { ChannelsRepository } from '../data/channels.repository';
import { SubscriptionsRepository } from '../data/subscriptions.repository';
import { UsersReadonlyRepository, type DirectoryUser } from '../data/users.readonly.repository';
import { checkFolderForChannel } from '../channel-folders/folder-for-channel';
import { ChannelPermissions } from './channel-permissions';

type Params = DecodedParams<typeof Messaging.updateChannelParams>;

/** Zulip stores "unlimited" retention as -1; null follows the organization. */
const UNLIMITED_RETENTION = -1;

/**
 * PATCH /streams/{stream_id} (zerver/views/streams.py update_stream_backend): for the channel's
 * administrators (the organization's, or its can_administer_channel_group). Retention is for
 * owners, web-public access for moderators and up. Permission settings take `{new, old}`; their
 * groups are stored by users-groups, which owns every group. One `stream` update event per
 * changed property, to those who can see the channel; a privacy change also tells those who
 * gain or lose sight of it (`stream` create or delete).
 */
@Injectable()
export class UpdateChannel {
  constructor(
    private readonly channels: ChannelsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly folders: ChannelFoldersRepository,
    private readonly access: ChannelPermissions,
    private readonly commands: CommandClient,
    private readonly users: UsersReadonlyRepository,
    private readonly stats: ChannelStatsReader,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    const settings = CHANNEL_PERMISSION_SETTING_NAMES.filter((name) => params[name] !== undefined);
    const given = ['new_name', 'description', 'is_private', 'is_web_public', 'history_public_to_subscribers', 'message_retention_days', 'folder_id'].some(
      (key) => params[key as keyof Params] !== undefined,
    );
    if (!given && settings.length === 0) throw badRequest('No new data supplied');
    const channel = await this.access.forAdministration(caller, params.stream_id);

    const data: Partial<StreamModel> = {};
    if (params.new_name !== undefined) {
      const name = checkChannelName(params.new_name);
      if (name !== channel.name) {
        const taken = (await this.channels.idsNamed(realm.id, [name], true)).filter((id) => id !== channel.id);
        if (taken.length > 0) throw badRequest('Channel name already in use.');
        data.name = name;
      }
    }
    if (params.description !== undefined) {
      const description = checkChannelDescription(params.description);
      if (description !== channel.description) {
        data.description = description;
        data.renderedDescription = renderDescription(description);
      }
    }
    this.privacy(channel, params, caller.role, data);
    if (params.message_retention_days !== undefined) {
      if (!isOwnerRole(caller.role)) throw mustBeOwner();
      const days = params.message_retention_days;
      // A count of days the column holds: more is not a period anyone means.
      if (typeof days === 'number' && (days < 1 || days > MAX_STORED_ID)) {
        throw new ZulipError('REQUEST_VARIABLE_INVALID', `Bad value for 'message_retention_days': ${days}`, { var_name: 'message_retention_days' });
      }
      const stored = days === 'unlimited' ? UNLIMITED_RETENTION : days === 'realm_default' ? null : days;
      if (stored !== channel.messageRetentionDays) data.messageRetentionDays = stored;
    }
    if (params.folder_id !== undefined && params.folder_id !== channel.folderId) {
      if (params.folder_id !== null) await checkFolderForChannel(this.folders, realm.id, params.folder_id);
      data.folderId = params.folder_id;
    }
    // Every other check has passed: only now may users-groups store new groups.
    for (const setting of settings) {
      const column = CHANNEL_PERMISSION_SETTINGS[setting].column;
      const { groupId } = await this.commands.call(UsersGroups.resolveGroupSetting, {
        realmId: realm.id,
        setting,
        restrictions: { allowEveryone: CHANNEL_PERMISSION_SETTINGS[setting].allowEveryone, allowNobody: true, allowOwners: true },
        change: params[setting]!,
        current: channel[column],
      });
      data[column] = groupId;
    }

    // Who saw the channel and who will, and its stats, read before the write: they do not depend on it.
    const [subscriberIds, everyone, stats] = await Promise.all([
      this.subscriptions.subscribedUserIds(channel.id),
      this.users.activeUsers(realm.id),
      this.stats.of([{ ...channel, ...data }]),
    ]);
    const context = { subscribers: new Set(subscriberIds), everyone, stats: stats.get(channel.id)! };
    return this.outbox.runCold(async (tx) => {
      const updated = await this.channels.update(channel.id, data, tx);
      return { value: {}, events: this.announce(realm.id, channel, updated, settings, context) };
    }, requestId);
  }

  /** is_private, is_web_public and history_public_to_subscribers, as one consistent change. */
  private privacy(channel: StreamModel, params: Params, role: number, data: Partial<StreamModel>): void {
    if (params.is_private === undefined && params.is_web_public === undefined && params.history_public_to_subscribers === undefined) return;
    const inviteOnly = params.is_private ?? channel.inviteOnly;
    const webPublic = params.is_web_public ?? (params.is_private === true ? false : channel.isWebPublic);
    if (params.is_web_public !== undefined && params.is_web_public !== channel.isWebPublic && !isModeratorOrAbove(role)) {
      throw badRequest('Insufficient permission');
    }
    if (inviteOnly && webPublic) throw badRequest('Invalid parameters');
    // A public channel's history is always open to its subscribers.
    const historyPublic = !inviteOnly || (params.history_public_to_subscribers ?? channel.historyPublicToSubscribers);
    if (inviteOnly !== channel.inviteOnly) data.inviteOnly = inviteOnly;
    if (webPublic !== channel.isWebPublic) data.isWebPublic = webPublic;
    if (historyPublic !== channel.historyPublicToSubscribers) data.historyPublicToSubscribers = historyPublic;
  }

  private announce(
    realmId: number,
    before: StreamModel,
    after: StreamModel,
    settings: ChannelPermissionSettingName[],
    { subscribers, everyone, stats }: { subscribers: ReadonlySet<number>; everyone: DirectoryUser[]; stats: ChannelStats },
  ): PendingEvent[] {
    const sawBefore = channelAudience(before, everyone, subscribers);
    const seesAfter = channelAudience(after, everyone, subscribers);
    const record = toChannelRecord(after, stats);
    const update = (property: string, value: unknown, extra: Record<string, unknown> = {}) =>
      channelEvent(realmId, seesAfter, { op: 'update', stream_id: after.id, name: before.name, property, value, ...extra });

    const events: PendingEvent[] = [];
    const gone = sawBefore.filter((id) => !seesAfter.includes(id));
    const arrived = seesAfter.filter((id) => !sawBefore.includes(id));
    if (gone.length > 0) events.push(channelsGone(realmId, gone, [after.id]));
    if (arrived.length > 0) events.push(channelCreated(realmId, arrived, record));
    if (after.name !== before.name) events.push(update('name', after.name));
    if (after.description !== before.description) {
      events.push(update('description', after.description, { rendered_description: after.renderedDescription }));
    }
    if (after.inviteOnly !== before.inviteOnly) {
      events.push(update('invite_only', after.inviteOnly, { history_public_to_subscribers: after.historyPublicToSubscribers, is_web_public: after.isWebPublic }));
    }
    if (after.isWebPublic !== before.isWebPublic) events.push(update('is_web_public', after.isWebPublic));
    if (after.historyPublicToSubscribers !== before.historyPublicToSubscribers) {
      events.push(update('history_public_to_subscribers', after.historyPublicToSubscribers));
    }
    if (after.messageRetentionDays !== before.messageRetentionDays) events.push(update('message_retention_days', after.messageRetentionDays));
    if (after.folderId !== before.folderId) events.push(update('folder_id', after.folderId));
    for (const setting of settings) events.push(update(setting, record[setting]));
    return events;
  }
}
