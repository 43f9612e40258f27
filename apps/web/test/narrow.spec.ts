import type { Message } from '../src/api/types';
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
});
