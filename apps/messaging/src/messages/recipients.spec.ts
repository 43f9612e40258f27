import { ZulipError } from '@teamchat/zulip';
import { parseChannelTarget, parseDirectTargets } from './recipients';

describe('parseChannelTarget', () => {
  it.each([
    ['general', { name: 'general' }],
    ['  Denmark  ', { name: 'Denmark' }],
    ['7', { id: 7 }],
    [' 7', { id: 7 }],
    ['[7]', { id: 7 }],
    ['"general"', { name: 'general' }],
    ['["general"]', { name: 'general' }],
    ['123abc', { name: '123abc' }],
    ['fun times', { name: 'fun times' }],
    ['{not json', { name: '{not json' }],
    ['', { name: '' }],
  ])('reads %j as %j', (to, target) => {
    expect(parseChannelTarget(to)).toEqual(target);
  });

  it.each([['true'], ['null'], ['1.5'], ['{}'], ['[1, 2]']])('refuses %j', (to) => {
    expect(() => parseChannelTarget(to)).toThrow(ZulipError);
  });
});

describe('parseDirectTargets', () => {
  it.each([
    ['[3, 4]', { ids: [3, 4] }],
    ['3', { ids: [3] }],
    ['iago@zulip.com', { emails: ['iago@zulip.com'] }],
    ['hamlet@zulip.com, iago@zulip.com', { emails: ['hamlet@zulip.com', 'iago@zulip.com'] }],
    ['["hamlet@zulip.com"]', { emails: ['hamlet@zulip.com'] }],
  ])('reads %j as %j', (to, targets) => {
    expect(parseDirectTargets(to)).toEqual(targets);
  });

  it.each([['[]'], [''], ['[3, "iago@zulip.com"]'], ['true']])('refuses %j', (to) => {
    expect(() => parseDirectTargets(to)).toThrow(ZulipError);
  });
});
