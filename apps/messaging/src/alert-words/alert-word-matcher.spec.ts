import { alertedUsers, withoutFencedCode } from './alert-word-matcher';

const words = (entries: [string, number[]][]) => new Map(entries);

describe('alertedUsers', () => {
  const index = words([
    ['alertword', [1]],
    ['how are you', [2]],
    ['hello', [3, 4]],
    ['c++', [5]],
  ]);

  it('matches case-insensitively, whole words and phrases, every owner of a word', () => {
    expect(alertedUsers('We have an ALERTWORD day today!', index)).toEqual(new Set([1]));
    expect(alertedUsers('Hey, HOW ARE YOU doing?', index)).toEqual(new Set([2]));
    expect(alertedUsers('hello', index)).toEqual(new Set([3, 4]));
    expect(alertedUsers('I love c++.', index)).toEqual(new Set([5]));
  });

  it('needs Zulip’s punctuation around a word', () => {
    expect(alertedUsers('(alertword)', index)).toEqual(new Set([1]));
    expect(alertedUsers('**alertword**', index)).toEqual(new Set([1]));
    expect(alertedUsers('> alertword', index)).toEqual(new Set([1]));
    expect(alertedUsers('an alertwords day', index)).toEqual(new Set());
    expect(alertedUsers('an xxalertword day', index)).toEqual(new Set());
    expect(alertedUsers('an alertword-day', index)).toEqual(new Set());
    // Zulip's set has `",` where a lone `"` was meant: a quote after a word does not end it.
    expect(alertedUsers('say "alertword"', index)).toEqual(new Set());
    expect(alertedUsers('say "alertword" now', index)).toEqual(new Set());
  });

  it('finds a later whole-word occurrence after a partial one', () => {
    expect(alertedUsers('alertwords and alertword', index)).toEqual(new Set([1]));
  });

  it('keeps Zulip’s start check, which never looks at the first character', () => {
    expect(alertedUsers('xalertword', index)).toEqual(new Set([1]));
    expect(alertedUsers('xyalertword', index)).toEqual(new Set());
  });

  it('ignores fenced code but not quotes or spoilers', () => {
    expect(alertedUsers('```\nalertword\n```', index)).toEqual(new Set());
    expect(alertedUsers('~~~python\nhello\n~~~\nafter', index)).toEqual(new Set());
    expect(alertedUsers('```quote\nalertword\n```', index)).toEqual(new Set([1]));
    expect(alertedUsers('```spoiler title\nhello\n```', index)).toEqual(new Set([3, 4]));
    expect(alertedUsers('````\n```\nalertword\n```\n````\nhello', index)).toEqual(new Set([3, 4]));
  });

  it('alerts nobody without words', () => {
    expect(alertedUsers('alertword', new Map())).toEqual(new Set());
  });
});

describe('withoutFencedCode', () => {
  it('empties the fence lines and code, keeping the rest', () => {
    expect(withoutFencedCode('a\n```js\ncode\n```\nb')).toBe('a\n\n\n\nb');
  });
});
