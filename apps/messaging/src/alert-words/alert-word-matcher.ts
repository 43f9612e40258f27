/**
 * Which users' alert words a message contains, as Zulip's AlertWordNotificationProcessor
 * decides (zerver/lib/markdown): the Markdown source, fenced code blocks left out (Zulip's fenced
 * block preprocessor runs first and stashes them; quotes and spoilers stay text), lower-cased,
 * searched for every word of the organization; an occurrence counts when the character before
 * it is one of Zulip's `allowed_before_punctuation` (or it starts the text) and the one after
 * one of `allowed_after_punctuation` (or it ends the text).
 */

/** Zulip's allowed_before_punctuation. */
const BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
/**
 * Zulip's allowed_after_punctuation. Zulip's set holds the two-character string `",` (a typo
 * there), so a double quote alone never ends an alert word; kept as it behaves.
 */
const AFTER = new Set([' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/** Fence languages whose contents stay text (Zulip renders them as Markdown). */
const TEXT_FENCES = new Set(['quote', 'spoiler']);
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)/;

/** The source with the contents of fenced code blocks removed (their lines become empty). */
export function withoutFencedCode(source: string): string {
  const lines = source.split('\n');
  let fence: { marker: string; keep: boolean } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence) {
      const closing = line.trim();
      if (closing.startsWith(fence.marker) && /^[`~]+$/.test(closing) && closing[0] === fence.marker[0]) {
        fence = null;
        lines[i] = '';
      } else if (!fence.keep) {
        lines[i] = '';
      }
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      fence = { marker: open[1], keep: TEXT_FENCES.has(open[2].toLowerCase()) };
      lines[i] = '';
    }
  }
  return lines.join('\n');
}

/**
 * The users alerted by `source`: `words` maps each lower-cased alert word to its owners.
 * Zulip checks the start with the character at (start − 1) only when that index is above 0, so a
 * word starting at the second character always has a valid start; kept as it behaves.
 */
export function alertedUsers(source: string, words: ReadonlyMap<string, readonly number[]>): Set<number> {
  const alerted = new Set<number>();
  if (words.size === 0) return alerted;
  const text = withoutFencedCode(source).toLowerCase();
  for (const [word, owners] of words) {
    if (word.length === 0) continue;
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
      const before = at - 1;
      const after = at + word.length;
      if ((before <= 0 || BEFORE.has(text[before])) && (after >= text.length || AFTER.has(text[after]))) {
        for (const owner of owners) alerted.add(owner);
        break;
      }
    }
  }
  return alerted;
}
