import { Injectable } from '@nestjs/common';
import type { AuthUser, RealmRef } from '@teamchat/contracts';
import { MAX_STORED_ID } from '@teamchat/db';
import { RESOLVED_TOPIC_PREFIX, badRequest } from '@teamchat/zulip';
import { ChannelAccess, firstVisibleMessageId } from '../core/channel-access';
import { DirectMessageGroupsRepository } from '../data/direct-message-groups.repository';
import { MessagesRepository, type NarrowRow } from '../data/messages.repository';
import {
  HAS_CONDITIONS,
  anyDirectMessage,
  dmIncluding,
  flagged,
  inChannelFrom,
  inDmGroup,
  inTopicNamed,
  messageIdAbove,
  messageIdAtMost,
  messageIdIn,
  messageIdIs,
  mutedFor,
  negatedIf,
  notInChannel,
  searchMatches,
  sentBy,
  topicPolicyIn,
  topicStartsWith,
  unreadBy,
  type NarrowCondition,
} from '../data/narrow-conditions';
import { UsersReadonlyRepository } from '../data/users.readonly.repository';
import { Flag } from './message-flags';
import { containsPattern, dmOperand, messageIdOperand, searchPhrases, type Term } from './narrow';
import { ReadableMessages } from './readable-messages.use-case';
import { Visibility } from './visibility-policy';

/** Zulip's LARGER_THAN_MAX_MESSAGE_ID, returned as the anchor for "newest". */
export const NEWEST_ANCHOR = 10000000000000000;

/** An internal term (no client can send it: normalizeNarrow refuses unknown operators): one direct-message group. */
const DM_GROUP = 'dm-group (internal)';

export type { NarrowRow };

/** Where a narrow's messages come from and the conditions on them. */
export interface Scope {
  viewerId: number;
  realmId: number;
  /** Read the whole channel (history open to the viewer), not just the viewer's rows. */
  channelWide?: { streamId: number };
  conditions: NarrowCondition[];
  /** The narrow names a conversation that does not exist. */
  empty: boolean;
  /** The text of the narrow's (not negated) `search` terms, when it searches. */
  search?: string;
  /** The message a `near` term names. */
  near?: number;
}

export interface ScopeOptions {
  /** Only messages the viewer has a row for (no channel history they never received). */
  ownRowsOnly?: boolean;
}

/** A window of a narrow around an anchor, as GET /messages and POST /messages/flags/narrow take it. */
export interface WindowRequest {
  anchor: number;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

export interface NarrowWindow {
  rows: NarrowRow[];
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

/** What a search found in a message, highlighted as Zulip does. */
export interface SearchMatch {
  match_content: string;
  match_subject: string;
}

/**
 * Narrows (zerver/lib/narrow.py NarrowBuilder): turns a narrow's terms into where the messages
 * come from and conditions on them, and reads windows of it. Like Zulip's builder, a term only
 * ever removes messages: the base is the viewer's own rows, or a whole channel whose history
 * the viewer may read.
 */
@Injectable()
export class NarrowQuery {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly dmGroups: DirectMessageGroupsRepository,
    private readonly channels: ChannelAccess,
    private readonly users: UsersReadonlyRepository,
    private readonly readable: ReadableMessages,
  ) {}

  async scope(realm: RealmRef, viewer: AuthUser, narrow: Term[], options: ScopeOptions = {}): Promise<Scope> {
    const terms = await this.resolveWith(realm, viewer, narrow);
    const conditions: NarrowCondition[] = [];
    const searches: string[] = [];
    let channelWide: { streamId: number } | undefined;
    let empty = false;
    let near: number | undefined;
    for (const term of terms) {
      const not = (condition: NarrowCondition) => negatedIf(term.negated, condition);
      switch (term.operator) {
        case 'channel': {
          const access =
            typeof term.operand === 'number'
              ? await this.channels.readable(realm.id, viewer, term.operand)
              : await this.channels.readableByName(realm.id, viewer, String(term.operand));
          if (!access) throw badRequest(`Invalid narrow operand: unknown channel ${String(term.operand)}`);
          if (term.negated) {
            conditions.push(notInChannel(access.channel.id));
          } else if (access.channel.historyPublicToSubscribers && !options.ownRowsOnly && !channelWide) {
            channelWide = { streamId: access.channel.id };
          } else {
            conditions.push(inChannelFrom(access.channel.id, firstVisibleMessageId(access)));
          }
          break;
        }
        case 'topic':
          conditions.push(not(inTopicNamed(term.operand as string)));
          break;
        case 'dm': {
          const targets = dmOperand(term.operand);
          const people =
            'ids' in targets
              ? await this.users.byIds(realm.id, targets.ids, (id) => `Invalid narrow operand: unknown user ${id}`)
              : await this.users.byEmails(realm.id, targets.emails, (email) => `Invalid narrow operand: unknown user ${email}`);
          const memberKey = [...new Set([viewer.id, ...people.map((p) => p.id)])].sort((a, b) => a - b).join(',');
          const groupId = await this.dmGroups.idByKey(realm.id, memberKey);
          if (groupId === null) empty = true;
          else conditions.push(inDmGroup(groupId));
          break;
        }
        case DM_GROUP:
          conditions.push(inDmGroup(term.operand as number));
          break;
        case 'dm-including': {
          const person = await this.person(realm.id, term.operand);
          const including = person.id === viewer.id ? anyDirectMessage() : dmIncluding(realm.id, person.id);
          conditions.push(not(including));
          break;
        }
        case 'is':
          conditions.push(not(this.isCondition(String(term.operand), viewer.id)));
          break;
        case 'has': {
          conditions.push(not(HAS_CONDITIONS[String(term.operand)]!));
          break;
        }
        case 'sender': {
          const person = await this.person(realm.id, term.operand);
          conditions.push(not(sentBy(person.id)));
          break;
        }
        case 'id':
          conditions.push(not(messageIdIs(messageIdOperand(term.operand)!)));
          break;
        case 'near':
          // No condition: a `near` narrow is the whole conversation, read around that message.
          near = messageIdOperand(term.operand)!;
          break;
        case 'search': {
          const text = String(term.operand);
          if (term.negated) conditions.push(negatedIf(true, searchCondition(text)));
          else searches.push(text);
          break;
        }
      }
    }
    // Zulip searches the positive search terms as one text.
    const search = searches.length > 0 ? searches.join(' ') : undefined;
    if (search !== undefined) conditions.push(searchCondition(search));
    return { viewerId: viewer.id, realmId: realm.id, channelWide, conditions, empty, search, near };
  }

  /** The messages of the scope matching `extra`, in id order, at most `limit`. */
  select(scope: Scope, extra: NarrowCondition, order: 'ASC' | 'DESC', limit: number): Promise<NarrowRow[]> {
    if (scope.empty) return Promise.resolve([]);
    return this.messages.narrowed(scope, [...scope.conditions, extra], order, limit);
  }

  /** The messages of the scope among these ids, in id order. */
  byIds(scope: Scope, ids: number[]): Promise<NarrowRow[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.select(scope, messageIdIn(ids), 'ASC', ids.length);
  }

  /** The narrow's first unread message of the viewer, NEWEST_ANCHOR when none. */
  async firstUnread(scope: Scope): Promise<number> {
    const [first] = await this.select(scope, unreadBy(Flag.read), 'ASC', 1);
    return first?.id ?? NEWEST_ANCHOR;
  }

  /** Up to numBefore messages before the anchor, the anchor (if asked and there), and up to numAfter after it, in id order. */
  async window(scope: Scope, { anchor, numBefore, numAfter, includeAnchor }: WindowRequest): Promise<NarrowWindow> {
    const [before, at, after] = await Promise.all([
      numBefore > 0 ? this.select(scope, messageIdAtMost(Math.min(anchor - 1, MAX_STORED_ID)), 'DESC', numBefore + 1) : [],
      anchor <= MAX_STORED_ID ? this.select(scope, messageIdIs(anchor), 'ASC', 1) : [],
      numAfter > 0 ? this.select(scope, messageIdAbove(Math.min(anchor, MAX_STORED_ID)), 'ASC', numAfter + 1) : [],
    ]);
    const foundAnchor = at.length > 0;
    return {
      rows: [...before.slice(0, numBefore).reverse(), ...(foundAnchor && includeAnchor ? at : []), ...after.slice(0, numAfter)],
      foundAnchor,
      foundOldest: before.length <= numBefore,
      foundNewest: anchor >= NEWEST_ANCHOR || after.length <= numAfter,
    };
  }

  /** Zulip's match_content and match_subject of these messages for a search's text. */
  async highlights(messageIds: number[], search: string): Promise<Map<number, SearchMatch>> {
    if (messageIds.length === 0) return new Map();
    const rows = await this.messages.searchHighlights(messageIds, search);
    return new Map(rows.map((row) => [row.id, { match_content: highlight(row.matchContent), match_subject: highlight(row.matchSubject) }]));
  }

  /**
   * `with:<message id>` (Zulip's update_narrow_terms_containing_with_operator): the
   * conversation holding that message, wherever it is now. A message the viewer cannot read
   * leaves a narrow that names a conversation itself as it is, and is refused otherwise.
   */
  private async resolveWith(realm: RealmRef, viewer: AuthUser, terms: Term[]): Promise<Term[]> {
    const withTerm = terms.find((term) => term.operator === 'with');
    if (!withTerm) return terms;
    const rest = terms.filter((term) => term !== withTerm);
    const messageId = messageIdOperand(withTerm.operand)!;
    const { messageIds } = await this.readable.execute({ realmId: realm.id, userId: viewer.id, messageIds: [messageId] });
    const message = messageIds.length > 0 ? await this.messages.conversation(realm.id, messageId) : null;
    if (!message) {
      const namesConversation = rest.some((t) => t.operator === 'dm') || (rest.some((t) => t.operator === 'channel') && rest.some((t) => t.operator === 'topic'));
      if (namesConversation) return rest;
      throw badRequest("Invalid narrow operator: Invalid 'with' operator");
    }
    const others = rest.filter((term) => !['channel', 'topic', 'dm'].includes(term.operator));
    if (message.streamId !== null) {
      return [
        { operator: 'channel', operand: message.streamId, negated: false },
        { operator: 'topic', operand: message.topic, negated: false },
        ...others,
      ];
    }
    // The group itself (not its members, some of whom may be deactivated since).
    return [{ operator: DM_GROUP, operand: message.dmGroupId!, negated: false }, ...others];
  }

  private async person(realmId: number, operand: Term['operand']) {
    const [person] =
      typeof operand === 'number'
        ? await this.users.byIds(realmId, [operand], (id) => `Invalid narrow operand: unknown user ${id}`)
        : await this.users.byEmails(realmId, [String(operand)], (e) => `Invalid narrow operand: unknown user ${e}`);
    return person;
  }

  private isCondition(operand: string, viewerId: number): NarrowCondition {
    switch (operand) {
      case 'unread':
        return unreadBy(Flag.read);
      case 'dm':
      case 'private':
        return anyDirectMessage();
      case 'mentioned':
        return flagged(Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned);
      case 'starred':
        return flagged(Flag.starred);
      case 'alerted':
        return flagged(Flag.has_alert_word);
      case 'resolved':
        return topicStartsWith(RESOLVED_TOPIC_PREFIX);
      case 'followed':
        return topicPolicyIn(viewerId, [Visibility.FOLLOWED]);
      case 'muted':
        // A muted topic, or a muted channel's topic the viewer has not unmuted or followed.
        return mutedFor(viewerId, [Visibility.MUTED], [Visibility.UNMUTED, Visibility.FOLLOWED]);
    }
    throw badRequest(`Invalid narrow operator: unknown 'is' operand ${operand}`);
  }
}

/** A search's condition: its words, stemmed, in the topic or the text, and each quoted phrase as written. */
function searchCondition(text: string): NarrowCondition {
  return searchMatches(text, searchPhrases(text).map(containsPattern));
}

/** Zulip's highlighting of a search's matches. */
function highlight(marked: string): string {
  return marked.replaceAll('<ts-match>', '<span class="highlight">').replaceAll('</ts-match>', '</span>');
}
