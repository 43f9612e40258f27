import { ZulipError } from '@teamchat/zulip';
import { checkEventNarrow, matchesNarrow, type NarrowedMessage } from './message-narrow';

const channelMessage = (overrides: Partial<NarrowedMessage> = {}): NarrowedMessage => ({
  type: 'stream',
  stream_id: 7,
  display_recipient: 'Design',
  subject: 'Colours',
  sender_id: 3,
  sender_email: 'Iago@Example.test',
  flags: [],
  ...overrides,
});
const directMessage = (flags: string[] = []): NarrowedMessage => ({
  type: 'private',
  display_recipient: [{ id: 3, email: 'iago@example.test' }],
  subject: '',
  sender_id: 3,
  sender_email: 'iago@example.test',
  flags,
});

describe('event queue narrows', () => {
  it('matches channels by name (any case) or id, and never a direct message', () => {
    expect(matchesNarrow(channelMessage(), [['stream', 'design']])).toBe(true);
    expect(matchesNarrow(channelMessage(), [{ operator: 'channel', operand: 7 }])).toBe(true);
    expect(matchesNarrow(channelMessage(), [['channel', 'other']])).toBe(false);
    expect(matchesNarrow(directMessage(), [['stream', 'design']])).toBe(false);
  });

  it('matches topics and senders without regard to case', () => {
    expect(matchesNarrow(channelMessage(), [['stream', 'Design'], ['topic', 'colours']])).toBe(true);
    expect(matchesNarrow(channelMessage(), [['topic', 'shapes']])).toBe(false);
    expect(matchesNarrow(channelMessage(), [['sender', 'iago@example.TEST']])).toBe(true);
    expect(matchesNarrow(channelMessage(), [{ operator: 'sender', operand: 3 }])).toBe(true);
    expect(matchesNarrow(channelMessage(), [['sender', 'someone@example.test']])).toBe(false);
  });

  it('applies the is: operands as Zulip does, a direct mention only for is:mentioned', () => {
    expect(matchesNarrow(directMessage(), [['is', 'dm']])).toBe(true);
    expect(matchesNarrow(directMessage(), [['is', 'private']])).toBe(true);
    expect(matchesNarrow(channelMessage(), [['is', 'dm']])).toBe(false);
    expect(matchesNarrow(channelMessage({ flags: ['starred'] }), [['is', 'starred']])).toBe(true);
    expect(matchesNarrow(channelMessage({ flags: ['read'] }), [['is', 'unread']])).toBe(false);
    expect(matchesNarrow(channelMessage({ flags: ['mentioned'] }), [['is', 'alerted']])).toBe(true);
    expect(matchesNarrow(channelMessage({ flags: ['stream_wildcard_mentioned'] }), [['is', 'mentioned']])).toBe(false);
    expect(matchesNarrow(channelMessage({ subject: '✔ Colours' }), [['is', 'resolved']])).toBe(true);
    expect(matchesNarrow(channelMessage(), [['is', 'resolved']])).toBe(false);
    expect(matchesNarrow(channelMessage(), [['is', 'something-new']])).toBe(true);
  });

  it('inverts negated terms and needs every term to hold', () => {
    expect(matchesNarrow(channelMessage(), [{ operator: 'topic', operand: 'colours', negated: true }])).toBe(false);
    expect(matchesNarrow(directMessage(), [{ operator: 'topic', operand: 'colours', negated: true }])).toBe(true);
    expect(matchesNarrow(channelMessage(), [['stream', 'design'], ['topic', 'shapes']])).toBe(false);
    expect(matchesNarrow(channelMessage(), [])).toBe(true);
  });

  it('refuses operators and operands an event queue cannot apply, with Zulip’s texts', () => {
    const refusal = (narrow: Parameters<typeof checkEventNarrow>[0]) => {
      try {
        checkEventNarrow(narrow);
        return null;
      } catch (error) {
        return error instanceof ZulipError ? [error.code, error.message] : String(error);
      }
    };
    expect(refusal([['search', 'colours']])).toEqual(['BAD_REQUEST', 'Operator search not supported.']);
    expect(refusal([{ operator: 'dm', operand: [3] }])).toEqual(['BAD_REQUEST', 'Operator dm not supported.']);
    expect(refusal([['is', 'followed']])).toEqual(['BAD_REQUEST', 'Operand followed not supported.']);
    expect(refusal([['stream', 'design'], ['topic', 't'], ['sender', 'a@b.c'], ['is', 'dm'], ['channel', 'x']])).toBeNull();
  });
});
