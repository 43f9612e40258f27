import type { MarkdownIt, StateBlock, Token } from 'markdown-it';

const BACKTICK = 0x60;
const TILDE = 0x7e;

/** A fence line: its marker, its length and what follows it (the info string), or undefined. */
function fenceAt(state: StateBlock, line: number): { marker: number; length: number; info: string } | undefined {
  if (state.sCount[line] - state.blkIndent >= 4) return undefined;
  const start = state.bMarks[line] + state.tShift[line];
  const max = state.eMarks[line];
  const marker = state.src.charCodeAt(start);
  if (marker !== BACKTICK && marker !== TILDE) return undefined;
  const after = state.skipChars(start, marker);
  if (after - start < 3) return undefined;
  const info = state.src.slice(after, max).trim();
  if (marker === BACKTICK && info.includes('`')) return undefined;
  return { marker, length: after - start, info };
}

/**
 * Zulip's quote and spoiler fences (zerver/lib/markdown/fenced_code.py): "```quote" makes a
 * `<blockquote>` and "```spoiler Header" a spoiler block, both holding Markdown (fences included)
 * rather than code. A fence inside one opens a nested block, so its closing line does not end the
 * quote; an unclosed block runs to the end of the message, as an unclosed code fence does.
 */
function quoteOrSpoiler(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const open = fenceAt(state, startLine);
  const kind = open && /^(quote|spoiler)(?:\s+([\s\S]*))?$/i.exec(open.info);
  if (!open || !kind) return false;
  if (silent) return true;

  let line = startLine;
  let depth = 0;
  let closed = false;
  while (++line < endLine) {
    if (state.sCount[line] < state.blkIndent && state.bMarks[line] + state.tShift[line] < state.eMarks[line]) break;
    const fence = fenceAt(state, line);
    if (!fence) continue;
    if (fence.info !== '') depth += 1;
    else if (depth > 0) depth -= 1;
    else if (fence.marker === open.marker && fence.length >= open.length) {
      closed = true;
      break;
    }
  }

  const isQuote = kind[1].toLowerCase() === 'quote';
  const markup = state.src.slice(state.bMarks[startLine] + state.tShift[startLine], state.bMarks[startLine] + state.tShift[startLine] + open.length);
  const push = (type: string, tag: string, nesting: -1 | 0 | 1): Token => {
    const token = state.push(type, tag, nesting);
    token.markup = markup;
    token.block = true;
    return token;
  };

  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  state.parentType = 'blockquote';
  if (isQuote) {
    push('blockquote_open', 'blockquote', 1).map = [startLine, line];
  } else {
    push('spoiler_open', 'div', 1).map = [startLine, line];
    push('spoiler_header_open', 'div', 1);
    const header = (kind[2] ?? '').trim();
    if (header !== '') {
      push('paragraph_open', 'p', 1);
      const inline = push('inline', '', 0);
      inline.content = header;
      inline.map = [startLine, startLine + 1];
      inline.children = [];
      push('paragraph_close', 'p', -1);
    }
    push('spoiler_header_close', 'div', -1);
    push('spoiler_content_open', 'div', 1);
  }
  state.lineMax = line;
  state.md.block.tokenize(state, startLine + 1, line);
  if (isQuote) push('blockquote_close', 'blockquote', -1);
  else {
    push('spoiler_content_close', 'div', -1);
    push('spoiler_close', 'div', -1);
  }
  state.parentType = oldParent;
  state.lineMax = oldLineMax;
  state.line = closed ? line + 1 : line;
  return true;
}

/** Zulip's spoiler markup: the header shown, the content hidden until the reader opens it. */
const SPOILER_HTML: Record<string, string> = {
  spoiler_open: '<div class="spoiler-block">',
  spoiler_header_open: '<div class="spoiler-header">\n',
  spoiler_header_close: '</div>',
  spoiler_content_open: '<div class="spoiler-content" aria-hidden="true">\n',
  spoiler_content_close: '</div>',
  spoiler_close: '</div>\n',
};

export function quoteSpoilerPlugin(md: MarkdownIt): void {
  md.block.ruler.before('fence', 'zulip_quote_spoiler', quoteOrSpoiler, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  for (const [type, html] of Object.entries(SPOILER_HTML)) md.renderer.rules[type] = () => html;
}
