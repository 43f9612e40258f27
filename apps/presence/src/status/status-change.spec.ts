import { ZulipError } from '@teamchat/zulip';
import { emojiCatalogue } from '@teamchat/zulip';
import { checkStatusChange, isBlankStatus, statusEvent, toStatusRecord, type CustomEmojiLookup, type StatusParams } from './status-change';

/** An organization's custom emoji held in memory: `party` (7) active, `old` (8) deactivated. */
const customEmoji: CustomEmojiLookup = (() => {
  const rows = [
    { id: 7, name: 'party', deactivated: false },
    { id: 8, name: 'old', deactivated: true },
    { id: 9, name: 'zulip', deactivated: true },
  ];
  return {
    activeByName: async (name) => rows.find((row) => row.name === name && !row.deactivated) ?? null,
    byId: async (id) => rows.find((row) => row.id === id) ?? null,
  };
})();

const check = (params: StatusParams) => checkStatusChange(params, emojiCatalogue(), customEmoji);

const refusal = async (params: StatusParams): Promise<string> => {
  try {
    await check(params);
  } catch (error) {
    expect(error).toBeInstanceOf(ZulipError);
    expect((error as ZulipError).code).toBe('BAD_REQUEST');
    return (error as ZulipError).message;
  }
  throw new Error('accepted');
};

describe('checkStatusChange', () => {
  it.each<[string, StatusParams, unknown]>([
    ['text only', { status_text: 'on vacation' }, { statusText: 'on vacation' }],
    ['an empty text (clears it)', { status_text: '' }, { statusText: '' }],
    ['away only', { away: true }, { away: true }],
    ['a Unicode name alone', { emoji_name: 'car' }, { emoji: { name: 'car', code: '1f697', type: 'unicode_emoji' } }],
    ['a Zulip name alone', { emoji_name: 'thumbs_up' }, { emoji: { name: 'thumbs_up', code: '1f44d', type: 'unicode_emoji' } }],
    ['a custom name alone', { emoji_name: 'party' }, { emoji: { name: 'party', code: '7', type: 'realm_emoji' } }],
    ['zulip alone (its custom namesake is deactivated)', { emoji_name: 'zulip' }, { emoji: { name: 'zulip', code: 'zulip', type: 'zulip_extra_emoji' } }],
    ['an empty name (clears the emoji, whatever else is sent)', { emoji_name: '', emoji_code: 'x', reaction_type: 'y' }, { emoji: { name: '', code: '', type: 'unicode_emoji' } }],
    [
      'a full Unicode triple',
      { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji' },
      { emoji: { name: 'heart', code: '2764', type: 'unicode_emoji' } },
    ],
    ['a name and its code', { emoji_name: 'grinning', emoji_code: '1f600' }, { emoji: { name: 'grinning', code: '1f600', type: 'unicode_emoji' } }],
    ['a name and its type', { emoji_name: '+1', reaction_type: 'unicode_emoji' }, { emoji: { name: '+1', code: '1f44d', type: 'unicode_emoji' } }],
    ['a custom triple', { emoji_name: 'party', emoji_code: '7', reaction_type: 'realm_emoji' }, { emoji: { name: 'party', code: '7', type: 'realm_emoji' } }],
    [
      'the interface’s server_extra_emoji type, stored as Zulip’s zulip_extra_emoji',
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'server_extra_emoji' },
      { emoji: { name: 'zulip', code: 'zulip', type: 'zulip_extra_emoji' } },
    ],
    ['empty code and type without a name (nothing to refuse)', { status_text: 'x', emoji_code: '', reaction_type: '' }, { statusText: 'x' }],
    [
      'everything at once',
      { away: false, status_text: 'busy', emoji_name: 'calendar' },
      { away: false, statusText: 'busy', emoji: { name: 'calendar', code: '1f4c6', type: 'unicode_emoji' } },
    ],
  ])('accepts %s', async (_name, params, change) => {
    expect(await check(params)).toEqual(change);
  });

  it.each<[string, StatusParams, string]>([
    ['nothing', {}, 'Client did not pass any new values.'],
    ['only a code and a type', { emoji_code: '1f697', reaction_type: 'unicode_emoji' }, 'Client did not pass any new values.'],
    ['a code without a name', { status_text: 'x', emoji_code: '1f697' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    ['a type without a name', { away: true, reaction_type: 'unicode_emoji' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    ['an unknown name alone', { emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
    ['a deactivated custom name alone', { emoji_name: 'old' }, "Emoji 'old' does not exist"],
    ['an unknown name with a code', { emoji_name: 'nope', emoji_code: '1f697' }, "Emoji 'nope' does not exist"],
    ['an unknown Unicode code', { emoji_name: 'car', emoji_code: '1f6970', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
    ['an upper-case Unicode code', { emoji_name: 'car', emoji_code: '1F697', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
    ['a name of another Unicode code', { emoji_name: 'car', emoji_code: '1f600', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
    ['an unknown name with a valid triple', { emoji_name: 'nope', emoji_code: '1f600', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
    ['an unknown custom id', { emoji_name: 'party', emoji_code: '99', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    ['a custom id with a leading zero', { emoji_name: 'party', emoji_code: '07', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    ['a custom code that is not an id', { emoji_name: 'party', emoji_code: 'party', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    ['another custom emoji’s name', { emoji_name: 'old', emoji_code: '7', reaction_type: 'realm_emoji' }, 'Invalid custom emoji name.'],
    ['a deactivated custom emoji', { emoji_name: 'old', emoji_code: '8', reaction_type: 'realm_emoji' }, 'This custom emoji has been deactivated.'],
    ['a bundled emoji of another code', { emoji_name: 'zulip', emoji_code: 'octopus', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji code.'],
    ['a bundled emoji of another name', { emoji_name: 'octopus', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji name.'],
    ['an unknown type', { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'sticker' }, 'Invalid emoji type.'],
    ['an unknown type after a name lookup', { emoji_name: 'car', reaction_type: 'sticker' }, 'Invalid emoji type.'],
  ])('refuses %s', async (_name, params, msg) => {
    expect(await refusal(params)).toBe(msg);
  });
});

describe('toStatusRecord', () => {
  const blank = { statusText: '', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' };

  it('shows nothing for no stored status, even when away', () => {
    expect(toStatusRecord(null, false)).toEqual({});
  });

  it('shows only what is set, and away only when presence is off', () => {
    expect(toStatusRecord(blank, true)).toEqual({});
    expect(toStatusRecord(blank, false)).toEqual({ away: true });
    expect(toStatusRecord({ ...blank, statusText: 'hi' }, true)).toEqual({ status_text: 'hi' });
    expect(toStatusRecord({ statusText: '', emojiName: 'party', emojiCode: '7', reactionType: 'realm_emoji' }, true)).toEqual({
      emoji_name: 'party',
      emoji_code: '7',
      reaction_type: 'realm_emoji',
    });
  });

  it('calls a status blank only when it shows nothing', () => {
    expect(isBlankStatus(blank, true)).toBe(true);
    expect(isBlankStatus(blank, false)).toBe(false);
    expect(isBlankStatus({ ...blank, statusText: 'x' }, true)).toBe(false);
    expect(isBlankStatus({ ...blank, emojiName: 'car', emojiCode: '1f697' }, true)).toBe(false);
  });
});

describe('statusEvent', () => {
  it('carries the user and only the keys that were passed', () => {
    expect(statusEvent(5, { statusText: 'x' })).toEqual({ type: 'user_status', user_id: 5, status_text: 'x' });
    expect(statusEvent(5, { away: false })).toEqual({ type: 'user_status', user_id: 5, away: false });
    expect(statusEvent(5, { emoji: { name: '', code: '', type: 'unicode_emoji' } })).toEqual({
      type: 'user_status',
      user_id: 5,
      emoji_name: '',
      emoji_code: '',
      reaction_type: 'unicode_emoji',
    });
  });
});
