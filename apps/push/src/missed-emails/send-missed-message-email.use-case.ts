import { Inject, Injectable } from '@nestjs/common';
import { Push, resolveSettings } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, Mailer, type AppConfig } from '@teamchat/platform';
import type { Logger } from 'pino';
import { MissedMessageEmailsRepository } from '../data/missed-message-emails.repository';
import { NotificationContextReadonlyRepository, type NotifiedMessageRow } from '../data/notification-context.readonly.repository';
import { plainText, realmUrlOf } from '../notifications/push-payloads';
import { renderMissedMessageEmail, type MissedMessageView } from './email-templates';

/** Where the unsubscribe link leads (on the organization's host), followed by the key. */
export const UNSUBSCRIBE_PATH = Push.UNSUBSCRIBE_MISSED_MESSAGES_PATH;

/** A conversation's part of a web app URL (Zulip's narrow fragments). */
const encodeTopic = (topic: string) => encodeURIComponent(topic).replace(/\./g, '.2E').replace(/%/g, '.');
const slug = (id: number, name: string) => `${id}-${encodeURIComponent(name.replace(/\s+/g, '-')).replace(/%/g, '.')}`;

/**
 * A recipient's batch is due (Zulip's handle_missedmessage_emails): the messages still unread
 * (read meanwhile: not mailed; none left: no email) grouped by conversation, rendered from the
 * templates into one email with an HTML and a text part, each conversation linked, with the
 * unsubscribe link, and sent through the Mailer (EMAIL_* settings). A deactivated user or one who
 * turned email notifications off meanwhile gets nothing.
 */
@Injectable()
export class SendMissedMessageEmail {
  constructor(
    private readonly batches: MissedMessageEmailsRepository,
    private readonly context: NotificationContextReadonlyRepository,
    private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(userId: number): Promise<{ mailed: number }> {
    // A job may fire a moment before its time by the database's clock.
    const entries = await this.batches.takeDue(userId, new Date(Date.now() + 1000));
    if (entries.length === 0) return { mailed: 0 };
    const user = await this.context.mailRecipient(userId);
    if (!user || !user.isActive) return { mailed: 0 };
    const unread = await this.context.unread(userId, entries.map((entry) => entry.messageId));
    const messages = (await this.context.messages([...unread])).filter((message) => message.realmId === user.realmId);
    if (messages.length === 0) return { mailed: 0 };
    const settings = resolveSettings(user.realmDefaults, user.settings);
    const realmUrl = realmUrlOf(user.subdomain, this.config.EXTERNAL_URL);
    const key = await this.batches.unsubscribeKey(user.realmId, userId);
    const conversations = await this.conversations(messages, userId, realmUrl);
    const view: MissedMessageView = {
      realmName: user.realmName,
      realmUrl,
      recipientName: user.fullName,
      showContent: settings.message_content_in_email_notifications,
      conversations,
      settingsUrl: `${realmUrl}/#settings/notifications`,
      unsubscribeUrl: `${realmUrl}${UNSUBSCRIBE_PATH}/${key}`,
    };
    const { html, text } = renderMissedMessageEmail(view);
    await this.mailer.send({ to: user.deliveryEmail, fromName: `${user.realmName} notifications`, subject: subjectOf(conversations, messages), text, html });
    this.logger.info({ userId, messages: messages.length }, 'missed-message email sent');
    return { mailed: messages.length };
  }

  private async conversations(messages: NotifiedMessageRow[], userId: number, realmUrl: string): Promise<MissedMessageView['conversations']> {
    const members = [...new Set(messages.flatMap((message) => message.dmMembers ?? []))];
    const names = await this.context.names(members);
    const groups = new Map<string, MissedMessageView['conversations'][number]>();
    for (const message of messages) {
      let key: string;
      let header: string;
      let url: string;
      if (message.streamId !== null) {
        key = `s${message.streamId}:${message.topic.toLowerCase()}`;
        header = `#${message.streamName ?? ''} > ${message.topic}`;
        url = `${realmUrl}/#narrow/channel/${slug(message.streamId, message.streamName ?? '')}/topic/${encodeTopic(message.topic)}/near/${message.id}`;
      } else {
        const others = (message.dmMembers ?? []).filter((id) => id !== userId).sort((a, b) => a - b);
        key = `d${others.join(',')}`;
        header = others.length > 1 ? `Group DMs with ${others.map((id) => names.get(id) ?? '').join(', ')}` : `DMs with ${names.get(others[0] ?? userId) ?? message.senderName}`;
        url = `${realmUrl}/#narrow/dm/${[...others].join(',')}/near/${message.id}`;
      }
      const group = groups.get(key) ?? { header, url, messages: [] };
      group.messages.push({ senderName: message.senderName, html: message.renderedContent, text: plainText(message.renderedContent) });
      groups.set(key, group);
    }
    return [...groups.values()];
  }
}

/** Zulip's subjects: the conversation's header, or a count when several. */
function subjectOf(conversations: MissedMessageView['conversations'], messages: NotifiedMessageRow[]): string {
  if (conversations.length === 1) return conversations[0].header;
  const senders = [...new Set(messages.map((message) => message.senderName))];
  return `Missed messages from ${senders.join(', ')}`;
}
