import { renderMarkdown } from './markdown';
import { newMentionEnv } from './mentions';

describe('renderMarkdown', () => {
  it('renders paragraphs, emphasis, code and line breaks', () => {
    expect(renderMarkdown('Hello **world**\nnext `code`')).toBe('<p>Hello <strong>world</strong><br>\nnext <code>code</code></p>');
  });

  it('escapes raw HTML and script instead of passing it through', () => {
    const html = renderMarkdown('<script>alert(1)</script> <img src=x onerror=alert(1)>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
  });

  it('refuses javascript: links', () => {
    expect(renderMarkdown('[x](javascript:alert(1))')).not.toContain('href="javascript');
  });

  it('opens links in a new tab without the opener', () => {
    expect(renderMarkdown('[z](https://zulip.com)')).toBe(
      '<p><a href="https://zulip.com" target="_blank" rel="noopener noreferrer">z</a></p>',
    );
  });

  it('renders user, silent, id and wildcard mentions and records who was mentioned', () => {
    const env = newMentionEnv([
      { id: 7, fullName: 'King Hamlet' },
      { id: 8, fullName: 'Iago' },
    ]);
    const html = renderMarkdown('@**King Hamlet** @_**Iago** @**|8** @**all** @**topic** @**Nobody**', env);
    expect(html).toBe(
      '<p><span class="user-mention" data-user-id="7">@King Hamlet</span> ' +
        '<span class="user-mention silent" data-user-id="8">Iago</span> ' +
        '<span class="user-mention" data-user-id="8">@Iago</span> ' +
        '<span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span> ' +
        '<span class="topic-mention">@topic</span> @<strong>Nobody</strong></p>',
    );
    expect([...env.mentionedUserIds].sort()).toEqual([7, 8]);
    expect(env).toMatchObject({ channelWildcard: true, topicWildcard: true });
  });

  it('does not count silent wildcards, and leaves an ambiguous name unmentioned', () => {
    const env = newMentionEnv([
      { id: 1, fullName: 'Sam' },
      { id: 2, fullName: 'Sam' },
    ]);
    renderMarkdown('@_**all** @_**topic** @**Sam**', env);
    expect(env).toMatchObject({ channelWildcard: false, topicWildcard: false });
    expect(env.mentionedUserIds.size).toBe(0);
  });

  it('escapes HTML in a mentioned name', () => {
    const env = newMentionEnv([{ id: 3, fullName: '<b>Bold</b>' }]);
    expect(renderMarkdown('@**<b>Bold</b>**', env)).toContain('@&lt;b&gt;Bold&lt;/b&gt;</span>');
  });

  it("renders Zulip's ```quote fence as a blockquote holding Markdown, not as code", () => {
    expect(renderMarkdown('```quote\nHello **there**\n```\nafter')).toBe(
      '<blockquote>\n<p>Hello <strong>there</strong></p>\n</blockquote>\n<p>after</p>',
    );
    expect(renderMarkdown('~~~quote\nx\n~~~')).toBe('<blockquote>\n<p>x</p>\n</blockquote>');
  });

  it('keeps a code fence inside a quote, whose closing line does not end the quote', () => {
    expect(renderMarkdown('```quote\nouter\n```python\nx = 1\n```\nstill\n```\nout')).toBe(
      '<blockquote>\n<p>outer</p>\n<pre><code class="language-python">x = 1\n</code></pre>\n<p>still</p>\n</blockquote>\n<p>out</p>',
    );
  });

  it('runs an unclosed quote to the end of the message, and leaves a code fence that merely says quote as code', () => {
    expect(renderMarkdown('```quote\nunclosed')).toBe('<blockquote>\n<p>unclosed</p>\n</blockquote>');
    expect(renderMarkdown('```py\nquote\n```')).toBe('<pre><code class="language-py">quote\n</code></pre>');
  });

  it("renders Zulip's ```spoiler fence with its header shown and its content hidden", () => {
    expect(renderMarkdown('```spoiler The *end*\nHe dies\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>The <em>end</em></p>\n</div>' +
        '<div class="spoiler-content" aria-hidden="true">\n<p>He dies</p>\n</div></div>',
    );
    expect(renderMarkdown('```spoiler\nx\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>x</p>\n</div></div>',
    );
  });

  it("renders a known :emoji: as Zulip's emoji span, and leaves an unknown name as text", () => {
    expect(renderMarkdown('Party :tada: and :not_an_emoji: and `:tada:`')).toBe(
      '<p>Party <span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span> and :not_an_emoji: and <code>:tada:</code></p>',
    );
  });

  it("renders Zulip's channel and topic links for the channels it may link to, and leaves others as text", () => {
    const env = Object.assign(newMentionEnv([]), { channels: new Map([['design team', { id: 9, name: 'Design team' }]]) });
    expect(renderMarkdown('See #**design team** and #**Design team>mock (ups).v2** not #**secret**', env)).toBe(
      '<p>See <a class="stream" data-stream-id="9" href="/#narrow/channel/9-Design-team">#Design team</a> and ' +
        '<a class="stream-topic" data-stream-id="9" href="/#narrow/channel/9-Design-team/topic/mock.20.28ups.29.2Ev2">#Design team &gt; mock (ups).v2</a> ' +
        'not #<strong>secret</strong></p>',
    );
  });
});
