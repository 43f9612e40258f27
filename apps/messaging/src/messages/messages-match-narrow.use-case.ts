import { Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { isStoredId } from '@teamchat/db';
import { escapeHtml, type DecodedParams } from '@teamchat/zulip';
import { normalizeNarrow } from './narrow';
import { NarrowQuery, type SearchMatch } from './narrow-query';

type Params = DecodedParams<typeof Messaging.messagesMatchNarrowParams>;

/**
 * GET /messages/matches_narrow (zerver/views/message_fetch.py messages_in_narrow_backend):
 * which of the given messages of the caller match a narrow, each with its rendered content and
 * escaped topic (highlighted when the narrow searches). Only the caller's own messages are
 * looked at, as in Zulip: clients ask it about messages that just arrived.
 */
@Injectable()
export class MessagesMatchNarrow {
  constructor(private readonly narrows: NarrowQuery) {}

  async execute({ realm, user, params }: UserCommand<Params>): Promise<{ messages: Record<string, SearchMatch> }> {
    const scope = await this.narrows.scope(realm, user, normalizeNarrow(params.narrow), { ownRowsOnly: true });
    const ids = [...new Set(params.msg_ids.filter(isStoredId))];
    const rows = await this.narrows.byIds(scope, ids);
    const matches = scope.search !== undefined ? await this.narrows.highlights(rows.map((row) => row.id), scope.search) : undefined;
    const messages: Record<string, SearchMatch> = {};
    for (const row of rows) {
      messages[String(row.id)] = matches?.get(row.id) ?? { match_content: row.renderedContent, match_subject: escapeHtml(row.topic) };
    }
    return { messages };
  }
}
