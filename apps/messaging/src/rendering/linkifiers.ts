import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import type { LinkifierMatcher } from '../linkifiers/linkifier-pattern';
import { expandTemplate, type ParsedTemplate } from '../linkifiers/uri-template';

/** A linkifier ready to apply (RealmLinkifiers compiles them once per organization). */
export interface RenderLinkifier {
  matcher: LinkifierMatcher;
  template: ParsedTemplate;
}

/** What rendering needs for linkifiers: the organization's, in order. */
export interface LinkifierEnv {
  linkifiers?: RenderLinkifier[];
}

type TokenClass = StateCore['Token'];

/** Before a text run that does not start a line or an element, Zulip's text holds a placeholder, which no `^` matches. */
const NOT_AT_START = '\u0000';

/**
 * Zulip's linkifiers (zerver/lib/markdown LinkifierPattern): each linkifier in turn, over the
 * text the ones before it left, links what its prepared pattern matches (see
 * prepare_linkifier_pattern) to its URL template expanded with the match's named groups. Code
 * (inline and blocks), existing links (Markdown links, autolinks, bare URLs) and what mentions,
 * emoji and channel links rendered are never text here, so never linkified. A URL the renderer
 * would not link (`javascript:`…) leaves the text as it is, as Zulip's sanitize_url does.
 */
export function linkifiersPlugin(md: MarkdownIt): void {
  md.core.ruler.push('zulip_linkifiers', (state: StateCore) => {
    const linkifiers = (state.env as LinkifierEnv | undefined)?.linkifiers;
    if (!linkifiers || linkifiers.length === 0) return;
    const TokenOf = state.Token;
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      let children = block.children;
      for (const linkifier of linkifiers) children = applyOne(md, TokenOf, children, linkifier);
      block.children = children;
    }
  });
}

function applyOne(md: MarkdownIt, TokenOf: TokenClass, tokens: Token[], linkifier: RenderLinkifier): Token[] {
  const out: Token[] = [];
  let linkDepth = 0;
  for (const token of tokens) {
    if (token.type === 'link_open') linkDepth += 1;
    if (token.type === 'link_close') linkDepth -= 1;
    if (token.type !== 'text' || linkDepth > 0 || !token.content) {
      out.push(token);
      continue;
    }
    const previous = out[out.length - 1];
    // A line's or an element's text starts anew; after anything else Zulip's text has a placeholder.
    const atLineStart = !previous || previous.type === 'softbreak' || previous.type === 'hardbreak' || previous.nesting === 1;
    const offset = atLineStart ? 0 : NOT_AT_START.length;
    const text = atLineStart ? token.content : NOT_AT_START + token.content;
    let from = 0;
    let written = offset;
    for (let match = linkifier.matcher(text, from); match; match = linkifier.matcher(text, from)) {
      if (match.end === match.start) {
        from = match.start + 1; // an empty match links nothing
        continue;
      }
      const url = expandTemplate(linkifier.template, match.groups);
      from = match.end;
      if (!md.validateLink(url)) continue;
      if (match.start > written) out.push(textToken(TokenOf, text.slice(written, match.start), token));
      const open = new TokenOf('link_open', 'a', 1);
      open.attrs = [['href', url]];
      open.markup = 'linkifier';
      out.push(open, textToken(TokenOf, match.text, token), new TokenOf('link_close', 'a', -1));
      written = match.end;
    }
    if (written === offset) out.push(token);
    else if (written < text.length) out.push(textToken(TokenOf, text.slice(written), token));
  }
  return out;
}

function textToken(TokenOf: TokenClass, content: string, like: Token): Token {
  const token = new TokenOf('text', '', 0);
  token.content = content;
  token.level = like.level;
  return token;
}
