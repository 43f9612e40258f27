import { Injectable } from '@nestjs/common';
import { CHANNEL_PERMISSION_SETTING_NAMES, UsersGroups, type AuthUser, type GroupSettingValue } from '@teamchat/contracts';
import type { StreamModel } from '@teamchat/db';
import { CommandClient } from '@teamchat/platform';
import { Role, ZulipError, badRequest } from '@teamchat/zulip';
import { checkFolderForChannel } from '../channel-folders/folder-for-channel';
import { ChannelFoldersRepository } from '../data/channel-folders.repository';
import type { NewChannelRow } from '../data/channels.repository';
import { renderDescription } from './channel-description';
import { CHANNEL_PERMISSION_SETTINGS } from './channel-permission-settings';

/**
 * How the channels a request creates are made: what POST /users/me/subscriptions and
 * POST /channels/create both accept (Zulip's stream_dict and its permission groups).
 */
export interface ChannelCreationOptions {
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  history_public_to_subscribers?: boolean;
  folder_id?: number | null;
  can_add_subscribers_group?: GroupSettingValue;
  can_administer_channel_group?: GroupSettingValue;
  can_delete_any_message_group?: GroupSettingValue;
  can_delete_own_message_group?: GroupSettingValue;
  can_move_messages_within_channel_group?: GroupSettingValue;
  can_remove_subscribers_group?: GroupSettingValue;
  can_resolve_topics_group?: GroupSettingValue;
  can_send_message_group?: GroupSettingValue;
  can_subscribe_group?: GroupSettingValue;
}

/** A channel a request creates: its checked name and description. */
export interface NewChannel {
  name: string;
  description: string;
}

/**
 * The one rule of who may create which channel (Zulip's can_create_public/private/web_public
 * channel, with our organization defaults: anyone but a guest, web-public ones administrators),
 * and Zulip's rules for default channels (administrators, never private).
 */
export function checkChannelCreation(caller: Pick<AuthUser, 'role'>, options: ChannelCreationOptions): void {
  if (caller.role === Role.GUEST) throw badRequest('Insufficient permission');
  if (options.is_web_public && caller.role > Role.ADMINISTRATOR) throw badRequest('Insufficient permission');
  if (options.is_default_stream && caller.role > Role.ADMINISTRATOR) throw badRequest('Insufficient permission');
  if (options.is_default_stream && options.invite_only) throw badRequest('A default channel cannot be private.');
}

/** Zulip's "Channel 'x' already exists" (409). */
export const channelAlreadyExists = (name: string): ZulipError =>
  new ZulipError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`);

/** Whether a write failed on the unique (organization, lower(name)) index of channels. */
export const isDuplicateChannelName = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === 'P2002';

@Injectable()
export class ChannelCreation {
  constructor(
    private readonly folders: ChannelFoldersRepository,
    private readonly commands: CommandClient,
  ) {}

  /**
   * The folder and permission groups asked for, checked by their own rules (the folder's;
   * users-groups stores the groups); unset ones are left to the database's defaults.
   */
  async settings(realmId: number, options: ChannelCreationOptions): Promise<Partial<StreamModel>> {
    const settings: Partial<StreamModel> = {};
    if (options.folder_id !== undefined && options.folder_id !== null) {
      await checkFolderForChannel(this.folders, realmId, options.folder_id);
      settings.folderId = options.folder_id;
    }
    for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) {
      const value = options[setting];
      if (value === undefined) continue;
      const config = CHANNEL_PERMISSION_SETTINGS[setting];
      const { groupId } = await this.commands.call(UsersGroups.resolveGroupSetting, {
        realmId,
        setting,
        restrictions: { allowEveryone: config.allowEveryone, allowNobody: true, allowOwners: true },
        change: { new: value },
        current: null,
      });
      settings[config.column] = groupId;
    }
    return settings;
  }

  /** The row of a new channel. A private channel's history is protected unless asked otherwise. */
  row(realmId: number, creatorId: number, channel: NewChannel, options: ChannelCreationOptions, settings: Partial<StreamModel>): NewChannelRow {
    return {
      realmId,
      name: channel.name,
      description: channel.description,
      renderedDescription: renderDescription(channel.description),
      inviteOnly: options.invite_only,
      isWebPublic: options.is_web_public,
      historyPublicToSubscribers: options.invite_only ? (options.history_public_to_subscribers ?? false) : true,
      isDefault: options.is_default_stream,
      creatorId,
      ...(settings as Partial<NewChannelRow>),
    };
  }
}
