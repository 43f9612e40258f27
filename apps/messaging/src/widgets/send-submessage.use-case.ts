import { Injectable } from '@nestjs/common';
import { MessagingEvents, type Messaging, type UserCommand } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { MessageFlagsRepository } from '../data/message-flags.repository';
import { SubmessagesRepository } from '../data/submessages.repository';
import { ActedMessages } from '../message-actions/acted-message';
import { checkPollData, checkTodoData } from './widget-data';

type Params = DecodedParams<typeof Messaging.sendSubmessageParams>;

/** The widget type a message's first `widget` submessage names, if any (Zulip's get_widget_type). */
function widgetType(content: string | null): unknown {
  if (content === null) return null;
  try {
    const data: unknown = JSON.parse(content);
    return data !== null && typeof data === 'object' ? (data as { widget_type?: unknown }).widget_type : null;
  } catch {
    return null;
  }
}

/**
 * POST /submessage (zerver/views/submessage.py process_submessage, zerver/actions/submessage.py):
 * a message the caller can read; its sender must have attached the first submessage; the content
 * JSON, checked against the poll or todo event schemas when the message is such a widget; stored
 * as sent, and a `submessage` event to everyone who received the message.
 */
@Injectable()
export class SendSubmessage {
  constructor(
    private readonly messages: ActedMessages,
    private readonly submessages: SubmessagesRepository,
    private readonly flags: MessageFlagsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const message = await this.messages.readable(realm, user, params.message_id);
    const state = await this.submessages.state(message.id, message.senderId);
    if (message.senderId !== user.id && !state.senderHasOne) throw badRequest('You cannot attach a submessage to this message.');
    let data: unknown;
    try {
      data = JSON.parse(params.content);
    } catch {
      throw badRequest('Invalid json for submessage');
    }
    const type = widgetType(state.widgetContent);
    const isAuthor = message.senderId === user.id;
    if (type === 'poll') checkPollData(data, isAuthor);
    if (type === 'todo') checkTodoData(data, isAuthor);

    const users = await this.flags.holders(message.id);
    return this.outbox.run(async (tx) => {
      const row = await this.submessages.add(message.id, user.id, params.msg_type, params.content, tx);
      const event = {
        type: 'submessage',
        msg_type: row.msgType,
        message_id: message.id,
        submessage_id: row.id,
        sender_id: user.id,
        content: row.content,
      };
      return { value: {}, events: [{ def: MessagingEvents.submessageAdded, payload: { realmId: realm.id, users, event } }] };
    }, requestId);
  }
}
