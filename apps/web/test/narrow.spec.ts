import type { Message } from '../src/api/types';
import { parseSearch } from '../src/search/parse-search';
import { apiNarrow, decodeHashComponent, encodeHashComponent, inNarrow, narrowHash, parseHash, type Narrow } from '../src/narrow/narrow';

const names = { channel: (id: number) => (id === 12 ? 'design team' : undefined), person: (id: number) => (id === 7 ? 'Alice' : undefined) };

describe('narrows and their URLs (Zulip hash_util)', () => {
  it('encodes a hash component as Zulip does: % becomes a dot, a dot %2E', () => {
    expect(encodeHashComponent('lunch plans')).toBe('lunch.20plans');
    expect(encodeHashComponent('v1.2')).toBe('v1.2E2');
    expect(encodeHashComponent('a/b?c#d')).toBe('a.2Fb.3Fc.23d');
    for (const text of ['lunch plans', 'v1.2', 'a/b?c#d', 'über 100%', '']) expect(decodeHashComponent(encodeHashComponent(text))).toBe(text);
  });

  it('writes and reads channel, topic and direct-message URLs', () => {
    const topic: Narrow = { kind: 'channel', channelId: 12, channelName: 'design team', topic: 'v1.2 review' };
    expect(narrowHash(topic)).toBe('#narrow/channel/12-design-team/topic/v1.2E2.20review');
    expect(parseHash(narrowHash(topic), names)).toEqual(topic);
    expect(parseHash('#narrow/channel/12-design-team', names)).toEqual({ kind: 'channel', channelId: 12, channelName: 'design team', topic: undefined });
    // Zulip's older spellings name the same narrows.
    expect(parseHash('#narrow/stream/12-design-team/topic/lunch', names)).toMatchObject({ kind: 'channel', channelId: 12, topic: 'lunch' });
    expect(parseHash('#narrow/dm/7-Alice', names)).toEqual({ kind: 'dm', userIds: [7], label: 'Alice' });
    expect(parseHash('#narrow/pm-with/7-Alice', names)).toEqual({ kind: 'dm', userIds: [7], label: 'Alice' });
    // A link to one message (`near`) opens its conversation.
    expect(parseHash('#narrow/channel/12-design-team/topic/lunch/near/99', names)).toMatchObject({ kind: 'channel', channelId: 12, topic: 'lunch' });
  });

  it('reads anything else as the combined feed', () => {
    for (const hash of ['', '#feed', '#narrow', '#narrow/channel/abc', '#narrow/dm/x-y', '#settings/profile']) expect(parseHash(hash, names)).toEqual({ kind: 'all' });
  });

  it('asks GET /messages with Zulip operators', () => {
    expect(apiNarrow({ kind: 'all' })).toEqual([]);
    expect(apiNarrow({ kind: 'channel', channelId: 12, channelName: 'x', topic: 'lunch' })).toEqual([
      { operator: 'channel', operand: 12 },
      { operator: 'topic', operand: 'lunch' },
    ]);
    expect(apiNarrow({ kind: 'dm', userIds: [7], label: '' })).toEqual([{ operator: 'dm', operand: [7] }]);
  });

  it('decides which live messages belong on screen', () => {
    const inChannel = { id: 1, type: 'stream', stream_id: 12, subject: 'Lunch', display_recipient: 'design team', sender_id: 7 } as Message;
    const direct = { id: 2, type: 'private', display_recipient: [{ id: 3 }, { id: 7 }], sender_id: 7 } as Message;
    expect(inNarrow({ kind: 'channel', channelId: 12, channelName: '', topic: 'lunch' }, inChannel, 3)).toBe(true);
    expect(inNarrow({ kind: 'channel', channelId: 12, channelName: '', topic: 'dinner' }, inChannel, 3)).toBe(false);
    expect(inNarrow({ kind: 'channel', channelId: 13, channelName: '' }, inChannel, 3)).toBe(false);
    expect(inNarrow({ kind: 'dm', userIds: [7], label: '' }, direct, 3)).toBe(true);
    expect(inNarrow({ kind: 'dm', userIds: [8], label: '' }, direct, 3)).toBe(false);
    expect(inNarrow({ kind: 'dm', userIds: [7], label: '' }, inChannel, 3)).toBe(false);
    expect(inNarrow({ kind: 'all' }, direct, 3)).toBe(true);
  });

  it('reads search narrows from URLs and asks the API with their operators', () => {
    const starred = parseHash('#narrow/is/starred', names);
    expect(starred).toEqual({ kind: 'search', terms: [{ operator: 'is', operand: 'starred' }] });
    expect(narrowHash(starred)).toBe('#narrow/is/starred');
    const mixed: Narrow = { kind: 'search', terms: [{ operator: 'channel', operand: '12-design-team' }, { operator: 'topic', operand: 'v1.2', negated: true }, { operator: 'search', operand: 'lunch plans' }] };
    expect(narrowHash(mixed)).toBe('#narrow/channel/12-design-team/-topic/v1.2E2/search/lunch.20plans');
    expect(parseHash(narrowHash(mixed), names)).toEqual(mixed);
    expect(apiNarrow(mixed)).toEqual([
      { operator: 'channel', operand: 12 },
      { operator: 'topic', operand: 'v1.2', negated: true },
      { operator: 'search', operand: 'lunch plans' },
    ]);
  });

  it('parses the search box as Zulip does: operators, negation, quotes, and words as full text', () => {
    const channelId = (name: string) => (name === 'design team' || name === 'design' ? 12 : undefined);
    expect(parseSearch('is:starred', channelId)).toEqual({ kind: 'search', terms: [{ operator: 'is', operand: 'starred' }] });
    expect(parseSearch('from:alice@acme.test -topic:"old news" lunch  plans', channelId)).toEqual({
      kind: 'search',
      terms: [
        { operator: 'sender', operand: 'alice@acme.test' },
        { operator: 'topic', operand: 'old news', negated: true },
        { operator: 'search', operand: 'lunch plans' },
      ],
    });
    // A channel (and topic) alone is that channel's narrow; an unknown operator is a word.
    expect(parseSearch('stream:design topic:lunch', channelId)).toMatchObject({ kind: 'channel', channelId: 12, topic: 'lunch' });
    expect(parseSearch('channel:12', channelId)).toMatchObject({ kind: 'channel', channelId: 12 });
    expect(parseSearch('channel:design has:link', channelId)).toEqual({ kind: 'search', terms: [{ operator: 'channel', operand: '12-design' }, { operator: 'has', operand: 'link' }] });
    expect(parseSearch('http://x.test', channelId)).toEqual({ kind: 'search', terms: [{ operator: 'search', operand: 'http://x.test' }] });
    expect(parseSearch('   ', channelId)).toEqual({ kind: 'all' });
  });

  it('decides which live messages belong in a search narrow', () => {
    const starredMessage = { id: 1, type: 'stream', stream_id: 12, subject: 'Lunch', sender_id: 7, sender_email: 'a@x', flags: ['starred'] } as unknown as Message;
    expect(inNarrow({ kind: 'search', terms: [{ operator: 'is', operand: 'starred' }] }, starredMessage, 3)).toBe(true);
    expect(inNarrow({ kind: 'search', terms: [{ operator: 'is', operand: 'mentioned' }] }, starredMessage, 3)).toBe(false);
    expect(inNarrow({ kind: 'search', terms: [{ operator: 'channel', operand: '12-design' }, { operator: 'sender', operand: '7' }] }, starredMessage, 3)).toBe(true);
    expect(inNarrow({ kind: 'search', terms: [{ operator: 'topic', operand: 'lunch', negated: true }] }, starredMessage, 3)).toBe(false);
    // Full text is the server's to decide: a live message is not guessed into it.
    expect(inNarrow({ kind: 'search', terms: [{ operator: 'search', operand: 'lunch' }] }, starredMessage, 3)).toBe(false);
  });
});
