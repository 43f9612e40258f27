import { Injectable } from '@nestjs/common';
import { Messaging, type UserCommand, type Presence, type RealmRef } from '@teamchat/contracts';
import { CommandClient, EventBus } from '@teamchat/platform';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import type { Person } from '../core/person';
import { PeopleReadonlyRepository } from '../data/people.readonly.repository';
import {
  MAX_CHANNEL_SIZE_FOR_TYPING,
  channelTypingEvent,
  directParticipants,
  directTypingEvent,
  typingAudience,
  typingEvents,
  typingTopic,
} from './typing-event';

type Params = DecodedParams<typeof Presence.typingParams>;

/**
 * POST /typing (zerver/views/typing.py, zerver/actions/typing.py): checks the notification in
 * Zulip's order and announces it to the conversation's other participants. Nothing is stored.
 * Channel access and subscribers come from messaging, which owns channels.
 */
@Injectable()
export class SendTyping {
  constructor(
    private readonly people: PeopleReadonlyRepository,
    private readonly commands: CommandClient,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const senderId = user.id;
    const published = params.type === 'direct' ? await this.direct(realm, senderId, params) : await this.channel(realm, senderId, params);
    // Straight to the event bus, not the outbox: a typing notification changes nothing stored,
    // so there is no commit for it to share; one lost to a crash is simply not shown.
    await this.events.publishAll(published, requestId);
    return {};
  }

  private async direct(realm: RealmRef, senderId: number, params: Params) {
    const to = params.to ?? null;
    if (to === null) throw badRequest("Missing 'to' argument");
    if (to.length === 0) throw badRequest("Empty 'to' list");
    // Deactivated users are still named (they are part of the conversation), but not told.
    const ids = directParticipants(to, senderId);
    const found = await this.people.byIds(realm, ids);
    const sender = this.sender(found.get(senderId), senderId, realm);
    if (!sender.settings.send_private_typing_notifications) {
      throw badRequest('User has disabled typing notifications for direct messages');
    }
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw badRequest(`Invalid user ID ${missing}`);
    const participants = ids.map((id) => found.get(id)!);

    const event = directTypingEvent(params.op, sender, participants);
    return typingEvents(realm.id, typingAudience(participants, senderId), event);
  }

  private async channel(realm: RealmRef, senderId: number, params: Params) {
    const streamId = params.stream_id ?? null;
    if (streamId === null) throw badRequest("Missing 'stream_id' argument");
    if (params.topic === undefined) throw badRequest('Missing topic');
    const sender = this.sender(await this.people.byId(realm, senderId), senderId, realm);
    if (!sender.settings.send_stream_typing_notifications) {
      throw badRequest('User has disabled typing notifications for channel messages');
    }

    // Refuses a channel the sender may not send to, as sending a message would.
    const { subscriberIds } = await this.commands.call(Messaging.typingAudience, { realmId: realm.id, userId: senderId, streamId });
    if (subscriberIds.length > MAX_CHANNEL_SIZE_FOR_TYPING) return [];

    const subscribers = await this.people.byIds(realm, subscriberIds);
    const event = channelTypingEvent(params.op, sender, streamId, typingTopic(params.topic));
    return typingEvents(realm.id, typingAudience(subscribers.values(), senderId), event);
  }

  private sender(sender: Person | null | undefined, senderId: number, realm: RealmRef): Person {
    // The gateway authenticated this user of this organization a moment ago.
    if (!sender) throw new Error(`sender ${senderId} is not a user of organization ${realm.id}`);
    return sender;
  }
}
