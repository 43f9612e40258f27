import { renderMarkdown } from '../rendering/markdown';
import { readPattern } from './linkifier-pattern';
import { compileAll } from './realm-linkifiers';
import { expandTemplate, parseTemplate, templateVariables } from './uri-template';

describe('linkifier patterns (RE2 syntax read into a guarded JavaScript RegExp)', () => {
  it.each([
    ['#(?P<id>[0-9]+)', '#(?<id>[0-9]+)', ['id']],
    ['(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>\\d+)', '(?<org>[a-z]+)\\/(?<repo>[a-z]+)#(?<id>\\d+)', ['org', 'repo', 'id']],
    ['\\#\\-(?P<id>\\d{2,3})', '#-(?<id>\\d{2,3})', ['id']],
    ['\\pL+\\s[[:digit:]]', '\\p{L}+[\\t\\n\\f\\r ][0-9]', []],
    ['{literal}', '\\{literal\\}', []],
    ['\\p{Greek}+', '\\p{Script=Greek}+', []],
  ])('reads %s', (pattern, source, groups) => {
    expect(readPattern(pattern)).toEqual({ ok: true, source, flags: '', groups });
  });

  it('turns a leading (?i) into the i flag', () => {
    expect(readPattern('(?i)abc')).toEqual({ ok: true, source: 'abc', flags: 'i', groups: [] });
  });

  it.each([
    ['(foo', 'missing ): (foo'],
    ['a)', 'unexpected ): a)'],
    ['[a-', 'missing ]: [a-'],
    ['[z-a]', 'invalid character class range: z-a'],
    ['a**', 'bad repetition operator: **'],
    ['a{2}{3}', 'bad repetition operator: {2}{3}'],
    ['a{1001}', 'bad repetition operator: {1001}'],
    ['*a', 'missing argument to repetition operator: *'],
    ['x\\', 'trailing \\'],
    ['(?P<x', 'invalid named capture group: (?P<x'],
    ['(?P<a>x)(?P<a>y)', 'invalid named capture group: (?P<a>'],
    ['a(?<=b)', 'invalid perl operator: (?<='],
    ['(?s)a', 'invalid perl operator: (?s)'],
    ['\\p{Nope}', 'invalid character class range: \\p{Nope}'],
    ['(a|ab)*c', 'nested repetition is not supported: (a|ab)*'],
    ['((\\w+\\s?))+', 'nested repetition is not supported: ((\\w+\\s?))+'],
  ])('refuses %s as RE2 would, or as our guard does', (pattern, error) => {
    expect(readPattern(pattern)).toEqual({ ok: false, error });
  });

  it('accepts repeated groups without inner repetition or alternation, and optional ones with them', () => {
    expect(readPattern('(ab)+(c+)?').ok).toBe(true);
  });
});

describe('URI templates (RFC 6570)', () => {
  const expand = (template: string, values: Record<string, string | undefined>) => expandTemplate(parseTemplate(template)!, values);

  it('validates as the uri_template package does', () => {
    for (const valid of ['https://example.com/{foo}{bars}', 'https://example.com{/foo,bar,baz}', 'https://example.com/{?foo*}', 'https://chat{.domain}.com/{#foo}', '$not_a_url$', 'https://example.com/%%(foo)s', 'https://z{.d}/t{/l}{/id}{?n,c}{#f:5}']) {
      expect(parseTemplate(valid)).not.toBeNull();
    }
    for (const invalid of ['https://example.com/{foo', 'https://example.com/{{}', 'https://example.com/{//foo}', 'https://example.com/{bar++}', 'a}b', '{}', '{=x}', '{x:0}']) {
      expect(parseTemplate(invalid)).toBeNull();
    }
    expect([...templateVariables(parseTemplate('{a}{+b}{?c,a}')!)]).toEqual(['a', 'b', 'c']);
  });

  it('expands each operator, encoding what it must and leaving out undefined values', () => {
    const values = { var: 'value', hello: 'Hello World!', path: '/foo/bar', empty: '', none: undefined };
    expect(expand('{var}', values)).toBe('value');
    expect(expand('{hello}', values)).toBe('Hello%20World%21');
    expect(expand('{+hello}', values)).toBe('Hello%20World!');
    expect(expand('{+path}/here', values)).toBe('/foo/bar/here');
    expect(expand('X{#hello}', values)).toBe('X#Hello%20World!');
    expect(expand('X{.var}', values)).toBe('X.value');
    expect(expand('{/var,none}', values)).toBe('/value');
    expect(expand('{;var,empty}', values)).toBe(';var=value;empty');
    expect(expand('{?var,empty,none}', values)).toBe('?var=value&empty=');
    expect(expand('?a=1{&var}', values)).toBe('?a=1&var=value');
    expect(expand('{var:3}', values)).toBe('val');
    expect(expand('{hello}', { hello: 'é/日' })).toBe('%C3%A9%2F%E6%97%A5');
  });
});

describe('rendering with linkifiers', () => {
  const linkifiers = compileAll([
    { pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tracker.test/{id}' },
    { pattern: 'RFC (?P<n>[0-9]+)', urlTemplate: 'https://rfc.test/{n}' },
  ]);
  const render = (source: string) => renderMarkdown(source, { linkifiers } as never);
  const link = (href: string, text: string) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;

  it('links at Zulip’s boundaries: after the start, whitespace or an opening delimiter, before a non-letter', () => {
    expect(render('#1 (#2) "#3" x#4 #5x #6.')).toBe(
      `<p>${link('https://tracker.test/1', '#1')} (${link('https://tracker.test/2', '#2')}) &quot;${link('https://tracker.test/3', '#3')}&quot; x#4 #5x ${link('https://tracker.test/6', '#6')}.</p>`,
    );
    expect(render('line\n#7')).toBe(`<p>line<br>\n${link('https://tracker.test/7', '#7')}</p>`);
    expect(render('see RFC 6570 now')).toBe(`<p>see ${link('https://rfc.test/6570', 'RFC 6570')} now</p>`);
  });

  it('leaves code, existing links and text right after other markup alone', () => {
    expect(render('`#1` [#2](https://a.test) <https://b.test/#3>')).toBe(
      `<p><code>#1</code> ${link('https://a.test', '#2')} ${link('https://b.test/#3', 'https://b.test/#3')}</p>`,
    );
    expect(render('**bold**#4')).toBe('<p><strong>bold</strong>#4</p>');
    expect(render('*#5*')).toBe(`<p><em>${link('https://tracker.test/5', '#5')}</em></p>`);
  });

  it('renders exactly as before with no linkifiers', () => {
    expect(renderMarkdown('#1 and **#2**', { linkifiers: [] } as never)).toBe('<p>#1 and <strong>#2</strong></p>');
  });
});
