import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { MessageFlagsRepository } from '../data/message-flags.repository';
import { normalizeNarrow } from './narrow';
import { NEWEST_ANCHOR, NarrowQuery } from './narrow-query';
import { UpdateMessageFlags, editableFlagBit } from './update-message-flags.use-case';

type Params = DecodedParams<typeof Messaging.updateMessageFlagsForNarrowParams>;

/** Zulip's MAX_MESSAGES_PER_FETCH: the most one call processes. */
const MAX_MESSAGES_PER_FETCH = 5000;

/**
 * POST /messages/flags/narrow (zerver/views/message_flags.py update_message_flags_for_narrow):
 * the flag change of POST /messages/flags (same rules, same events) on a window of a narrow
 * around an anchor, so a client can mark a whole conversation read in batches. The window is
 * read over the caller's own messages (those a flag can be set on).
 */
@Injectable()
export class UpdateMessageFlagsForNarrow {
  constructor(
    private readonly flagRows: MessageFlagsRepository,
    private readonly narrows: NarrowQuery,
    private readonly flags: UpdateMessageFlags,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>) {
    const caller = user;
    const bit = editableFlagBit(params.flag);
    if (params.num_before > 0 && params.num_after > 0 && !params.include_anchor) {
      throw badRequest('The anchor can only be excluded at an end of the range');
    }
    // Zulip's clamp: at most MAX_MESSAGES_PER_FETCH in all, at least half of it on a side asked for.
    const numBefore = Math.min(params.num_before, Math.max(MAX_MESSAGES_PER_FETCH - params.num_after, MAX_MESSAGES_PER_FETCH / 2));
    const numAfter = Math.min(params.num_after, Math.max(MAX_MESSAGES_PER_FETCH - numBefore, MAX_MESSAGES_PER_FETCH / 2));
    const scope = await this.narrows.scope(realm, caller, normalizeNarrow(params.narrow), { ownRowsOnly: true });
    const anchor = await this.anchor(params.anchor, () => this.narrows.firstUnread(scope));
    const window = await this.narrows.window(scope, { anchor, numBefore, numAfter, includeAnchor: params.include_anchor });

    const ids = window.rows.map((row) => row.id);
    const rows = ids.length === 0 ? [] : await this.flagRows.flaggable(caller.id, ids);
    const changed = await this.flags.change({ realmId: realm.id, userId: caller.id, op: params.op, flag: params.flag, bit, rows, requestId });
    return {
      processed_count: ids.length,
      updated_count: changed.messages.length,
      first_processed_id: ids[0] ?? null,
      last_processed_id: ids[ids.length - 1] ?? null,
      found_oldest: window.foundOldest,
      found_newest: window.foundNewest,
      ignored_because_not_subscribed_channels: changed.ignored_because_not_subscribed_channels,
    };
  }

  private async anchor(text: string, firstUnread: () => Promise<number>): Promise<number> {
    if (text === 'newest') return NEWEST_ANCHOR;
    if (text === 'oldest') return 0;
    if (text === 'first_unread') return firstUnread();
    if (/^\d{1,16}$/.test(text)) return Number(text);
    throw badRequest('Invalid anchor');
  }
}
