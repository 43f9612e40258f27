import { directMessageUrl, encodeHashComponent, globalTime, messageLinkSyntax, reportMessage, truncateContent, unusedFence } from './report-content';

const names = new Map([
  [1, 'Hamlet'],
  [2, 'Othello'],
  [3, 'Iago'],
  [4, 'Zoe'],
]);
const sent = new Date('2026-01-02T03:04:05.678Z');

describe('report content', () => {
  it('reports a channel message with its link, reason, notes and the message in a spoiler', () => {
    const report = reportMessage({
      reporterId: 1,
      reportType: 'harassment',
      description: 'this is crime against food',
      message: { id: 42, senderId: 2, content: 'I squeeze toothpaste from the middle', dateSent: sent, channel: { id: 7, name: 'Denmark', topic: 'civilized' }, dmMemberIds: [] },
      names,
      realmUrl: 'http://zulip.test',
    });
    expect(report.topic).toBe('Othello moderation');
    expect(report.content).toBe(
      [
        '@_**Hamlet|1** reported a message sent by @_**Othello|2** at <time:2026-01-02T03:04:05+00:00>.',
        '```quote',
        '**Harassment**. this is crime against food',
        '```',
        '',
        '``` spoiler Original message at #**Denmark>civilized@42**',
        'I squeeze toothpaste from the middle',
        '```',
      ].join('\n'),
    );
  });

  it('words one-on-one, own and group direct messages as Zulip does', () => {
    const dm = (senderId: number, dmMemberIds: number[], reporterId = 1) =>
      reportMessage({
        reporterId,
        reportType: 'spam',
        description: '',
        message: { id: 9, senderId, content: 'hi', dateSent: sent, channel: null, dmMemberIds },
        names,
        realmUrl: 'http://zulip.test',
      }).content.split('\n');
    expect(dm(2, [1, 2])[0]).toBe('@_**Hamlet|1** reported a direct message sent by @_**Othello|2** at <time:2026-01-02T03:04:05+00:00>.');
    expect(dm(2, [1, 2])[2]).toBe('**Spam**. ');
    expect(dm(2, [1, 2])[5]).toBe('``` spoiler [Original message](http://zulip.test/#narrow/dm/1,2/near/9)');
    expect(dm(1, [1, 2])[0]).toBe('@_**Hamlet|1** reported a direct message sent by @_**Hamlet|1** to @_**Othello|2** at <time:2026-01-02T03:04:05+00:00>.');
    expect(dm(1, [1])[0]).toBe('@_**Hamlet|1** reported a direct message sent by @_**Hamlet|1** to @_**Hamlet|1** at <time:2026-01-02T03:04:05+00:00>.');
    expect(dm(2, [1, 2, 3])[0]).toBe('@_**Hamlet|1** reported a direct message sent by @_**Othello|2** to @_**Hamlet|1** and @_**Iago|3** at <time:2026-01-02T03:04:05+00:00>.');
    expect(dm(2, [1, 2, 3, 4])[0]).toBe(
      '@_**Hamlet|1** reported a direct message sent by @_**Othello|2** to @_**Hamlet|1**, @_**Iago|3**, and @_**Zoe|4** at <time:2026-01-02T03:04:05+00:00>.',
    );
    expect(dm(2, [1, 2, 3, 4])[5]).toBe('``` spoiler [Original message](http://zulip.test/#narrow/dm/1,2,3,4-group/near/9)');
  });

  it('fences the message with more backticks than it uses and truncates a long one', () => {
    expect(unusedFence('plain')).toBe('```');
    expect(unusedFence('````js\ncode\n````')).toBe('`````');
    expect(truncateContent('abcdef', 5, '…!')).toBe('abc…!');
    expect(truncateContent('abcde', 5, '…!')).toBe('abcde');
  });

  it('links channels and topics that would break the short syntax with a plain link', () => {
    expect(messageLinkSyntax(5, 'Sw*den', '', 3)).toBe('[#Sw&#42;den > general chat @ 💬](#narrow/channel/5-Sw*den/topic//near/3)');
    expect(encodeHashComponent('a b.(c)!')).toBe('a.20b.2E.28c.29.21');
    expect(globalTime(new Date('2001-02-03T04:05:06Z'))).toBe('<time:2001-02-03T04:05:06+00:00>');
    expect(directMessageUrl('http://x', [3, 1], 4)).toBe('http://x/#narrow/dm/1,3/near/4');
  });
});
