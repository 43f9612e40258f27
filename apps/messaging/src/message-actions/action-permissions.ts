import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@teamchat/contracts';
import { badRequest, isAdminRole, isGuestRole } from '@teamchat/zulip';
import { GroupsReadonlyRepository } from '../data/groups.readonly.repository';
import type { ActionableMessageRow } from '../data/messages.repository';
import { RealmsReadonlyRepository, type RealmEditSettingsRow } from '../data/realms.readonly.repository';

/** A channel-level permission: the message row's column, and whether it may be role:everyone (else never a guest's). */
const CHANNEL_SETTINGS = {
  can_delete_any_message_group: { column: 'canDeleteAnyMessageGroupId', allowEveryone: false },
  can_delete_own_message_group: { column: 'canDeleteOwnMessageGroupId', allowEveryone: true },
  can_move_messages_within_channel_group: { column: 'canMoveMessagesWithinChannelGroupId', allowEveryone: true },
  can_resolve_topics_group: { column: 'canResolveTopicsGroupId', allowEveryone: true },
} as const;
type ChannelSetting = keyof typeof CHANNEL_SETTINGS;

/**
 * Who may edit, move and delete messages (zerver/lib/message.py, zerver/actions/message_edit.py):
 * an organization-level group setting, or the channel's own setting (its administrators hold
 * every channel permission; the organization's administrators hold them all).
 */
@Injectable()
export class ActionPermissions {
  constructor(
    private readonly realms: RealmsReadonlyRepository,
    private readonly groups: GroupsReadonlyRepository,
  ) {}

  async settings(realmId: number): Promise<RealmEditSettingsRow> {
    return (await this.realms.editSettings(realmId))!;
  }

  /**
   * Whether the caller is in the organization's group `realmGroupId`, or holds the channel's
   * `setting` on the message's channel (direct messages: the organization's group only).
   */
  async holds(caller: AuthUser, realmGroupId: number | null, message: ActionableMessageRow, setting?: ChannelSetting): Promise<boolean> {
    if (isAdminRole(caller.role)) return true;
    const candidates: number[] = realmGroupId !== null ? [realmGroupId] : [];
    if (setting && message.streamId !== null) {
      const guest = isGuestRole(caller.role);
      const own = message[CHANNEL_SETTINGS[setting].column];
      if (own !== null && (CHANNEL_SETTINGS[setting].allowEveryone || !guest)) candidates.push(own);
      if (message.canAdministerChannelGroupId !== null && !guest) candidates.push(message.canAdministerChannelGroupId);
    }
    if (candidates.length === 0) return false;
    return (await this.groups.groupsHolding(caller.id, [...new Set(candidates)])).size > 0;
  }
}

/** Zulip's edit_limit_buffer: a request a little late still counts. */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;

/** Whether more than `limitSeconds` (plus the buffer) passed since `sent`; a null limit never passes. */
export const pastLimit = (sent: Date, limitSeconds: number | null, now = Date.now(), bufferSeconds = EDIT_LIMIT_BUFFER_SECONDS): boolean =>
  limitSeconds !== null && now - sent.getTime() > (limitSeconds + bufferSeconds) * 1000;

/**
 * Zulip's validate_user_can_edit_message: editing on in the organization, the caller the
 * message's sender, within the organization's limit (plus `bufferSeconds`: an edit's request
 * gets Zulip's buffer, the typing notification before it none).
 */
export function checkContentEditable(
  settings: Pick<RealmEditSettingsRow, 'allowMessageEditing' | 'editLimitSeconds'>,
  message: { senderId: number; dateSent: Date },
  callerId: number,
  bufferSeconds = EDIT_LIMIT_BUFFER_SECONDS,
): void {
  if (!settings.allowMessageEditing) throw badRequest('Your organization has turned off message editing');
  if (message.senderId !== callerId) throw badRequest("You don't have permission to edit this message");
  if (pastLimit(message.dateSent, settings.editLimitSeconds, Date.now(), bufferSeconds)) {
    throw badRequest('The time limit for editing this message has passed');
  }
}
