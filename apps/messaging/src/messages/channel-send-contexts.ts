import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { MessagingEvents, SUBJECT_PREFIX } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { APP_CONFIG, CommandConnection, type AppConfig } from '@teamchat/platform';
import { ChannelsRepository, type ChannelSendContextRow } from '../data/channels.repository';

/** Beyond this many entries the oldest go first (an entry is a channel and one of its senders). */
const MAX_ENTRIES = 10_000;

/**
 * What changes a send context: the channel (its row, settings, archiving), anyone's subscription
 * to it, and people (accounts, roles, names, settings and their organization's defaults, groups).
 */
const CHANGES = [
  MessagingEvents.channelChanged.subject,
  MessagingEvents.subscriptionChanged.subject,
  `${SUBJECT_PREFIX}event.users-groups.>`,
];

/**
 * The channel part of sending to a channel (its row, the sender's subscription and profile,
 * the recipients, who may post), read in one statement and kept for SEND_CONTEXT_CACHE_SECONDS,
 * so a steady stream of messages costs one statement each (the insert). Any event that could
 * change a context empties the cache, on every replica: those events arrive on the commands'
 * connection (CommandConnection), so a command sent after a change was answered never reads
 * what the change made stale. The time limit covers what no event tells (a database changed
 * by hand). Only found channels are kept: a channel created next is found by the next send.
 */
@Injectable()
export class ChannelSendContexts implements OnModuleInit {
  private readonly entries = new Map<string, { context: ChannelSendContextRow; expires: number }>();
  private readonly lifetimeMs: number;
  /** Counts the emptyings: a read that began before one is used but not kept. */
  private generation = 0;

  constructor(
    private readonly channels: ChannelsRepository,
    private readonly connection: CommandConnection,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.lifetimeMs = config.SEND_CONTEXT_CACHE_SECONDS * 1000;
  }

  onModuleInit(): void {
    for (const subject of CHANGES) this.connection.subscribe(subject, () => this.clear());
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** The context for user `userId` sending to a channel by id or name in organization `realmId`, if the channel exists. */
  async of(target: { id: number } | { name: string }, realmId: number, userId: number): Promise<ChannelSendContextRow | undefined> {
    const key = 'id' in target ? `${realmId}:#${target.id}:${userId}` : `${realmId}:${userId}:${target.name}`;
    const now = Date.now();
    const kept = this.entries.get(key);
    if (kept && kept.expires > now) return kept.context;
    const generation = this.generation;
    const context =
      ('id' in target
        ? isStoredId(target.id)
          ? await this.channels.sendContextById(target.id, realmId, userId)
          : null
        : await this.channels.sendContextByName(target.name, realmId, userId)) ?? undefined;
    if (context && this.lifetimeMs > 0 && generation === this.generation) {
      this.entries.delete(key);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { context, expires: now + this.lifetimeMs });
    }
    return context;
  }
}
