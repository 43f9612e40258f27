import { Injectable } from '@nestjs/common';
import { UsersGroups, type Messaging, type UserCommand } from '@teamchat/contracts';
import { CommandClient } from '@teamchat/platform';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { MemberProfiles } from '../core/member-profiles';
import { DirectMessageGroupsRepository } from '../data/direct-message-groups.repository';
import { RealmsReadonlyRepository } from '../data/realms.readonly.repository';
import { ActedMessages } from '../message-actions/acted-message';
import { SendScheduledMessage } from '../messages/send-scheduled-message.use-case';
import { reportMessage } from './report-content';

/**
 * POST /messages/{message_id}/report (zerver/views/message_report.py, zerver/lib/message_report.py):
 * in Zulip's order, "An explanation is required." for `other` without a description, "Message
 * reporting is not enabled in this organization." without a moderation request channel, then
 * "Invalid message(s)" for a message the caller may not read. The organization's notification
 * bot posts the report (report-content.ts) in the moderation request channel, topic
 * "<sender> moderation", through the send path, as a system sender that may post in any channel
 * (the channel is usually private). Reporting one's own message is allowed, as in Zulip.
 */
@Injectable()
export class ReportMessage {
  constructor(
    private readonly acted: ActedMessages,
    private readonly realms: RealmsReadonlyRepository,
    private readonly dmGroups: DirectMessageGroupsRepository,
    private readonly profiles: MemberProfiles,
    private readonly commands: CommandClient,
    private readonly send: SendScheduledMessage,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<DecodedParams<typeof Messaging.reportMessageParams>>): Promise<Record<string, never>> {
    if (params.report_type === 'other' && params.description === '') throw badRequest('An explanation is required.');
    const { moderationRequestChannelId } = await this.realms.moderationSettings(realm.id);
    if (moderationRequestChannelId === null) throw badRequest('Message reporting is not enabled in this organization.');
    const row = await this.acted.readable(realm, user, params.message_id);

    const dmMemberIds = row.dmGroupId !== null ? ((await this.dmGroups.byIds([row.dmGroupId]))[0]?.memberIds ?? []) : [];
    const profiles = await this.profiles.of(realm.host, [user.id, row.senderId, ...dmMemberIds]);
    const { topic, content } = reportMessage({
      reporterId: user.id,
      reportType: params.report_type,
      description: params.description,
      message: {
        id: row.id,
        senderId: row.senderId,
        content: row.content,
        dateSent: row.dateSent,
        channel: row.streamId !== null ? { id: row.streamId, name: row.channelName ?? '', topic: row.topic } : null,
        dmMemberIds: [...dmMemberIds].sort((a, b) => a - b),
      },
      names: new Map([...profiles].map(([id, profile]) => [id, profile.fullName])),
      realmUrl: realm.url,
    });
    const { userId: botId } = await this.commands.call(UsersGroups.notificationBot, { realmId: realm.id });
    await this.send.execute(
      {
        realmId: realm.id,
        senderId: botId,
        client: 'Internal',
        readBySender: null,
        requestId: `${requestId}-report`,
        type: 'stream',
        to: String(moderationRequestChannelId),
        topic,
        content,
      },
      { systemSender: true },
    );
    return {};
  }
}
