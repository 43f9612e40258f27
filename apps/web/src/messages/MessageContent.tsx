import DOMPurify from 'dompurify';
import { useMemo, type MouseEvent } from 'react';

// Links the server rendered open outside the app, never with access to it.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  // Zulip's links into the app (channels, topics: "/#narrow/…") stay in it.
  if (node.tagName === 'A' && node.getAttribute('href')?.startsWith('/#')) node.setAttribute('href', node.getAttribute('href')!.slice(1));
  if (node.tagName === 'A' && node.getAttribute('href') && !node.getAttribute('href')!.startsWith('#')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/**
 * A message's HTML as the server rendered it, through DOMPurify first (defence in depth: the
 * server's renderer escapes, this catches what it would miss; the Content-Security-Policy is the
 * third line). No scripts, no event handlers, no forms or frames, no inline styles.
 */
export function MessageContent({ html }: { html: string }) {
  const clean = useMemo(
    () =>
      withEmojiGlyphs(
        DOMPurify.sanitize(html, {
          FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
          FORBID_ATTR: ['style'],
        }),
      ),
    [html],
  );
  return <div className="content" onClick={toggleSpoiler} dangerouslySetInnerHTML={{ __html: clean }} />;
}

/**
 * Zulip's emoji markup (`<span class="emoji emoji-1f389" role="img" aria-label="tada">:tada:</span>`)
 * shows the emoji itself: Zulip's clients draw it from a sprite sheet; the code's characters do here.
 */
function withEmojiGlyphs(html: string): string {
  return html.replace(/(<span [^>]*class="emoji emoji-([0-9a-f]+(?:-[0-9a-f]+)*)"[^>]*>):[a-z0-9_+-]+:<\/span>/g, (whole, open: string, code: string) => {
    try {
      return `${open}${String.fromCodePoint(...code.split('-').map((part) => Number.parseInt(part, 16)))}</span>`;
    } catch {
      return whole;
    }
  });
}

/** A click on a spoiler's header shows or hides its content (Zulip's spoiler block). */
function toggleSpoiler(event: MouseEvent<HTMLDivElement>): void {
  const header = (event.target as Element).closest('.spoiler-header');
  const block = header?.parentElement;
  if (!block?.classList.contains('spoiler-block')) return;
  const open = block.classList.toggle('spoiler-open');
  block.querySelector(':scope > .spoiler-content')?.setAttribute('aria-hidden', String(!open));
}
