/**
 * The emoji the picker offers: Zulip's names and codes (emoji-datasource's short names, which the
 * server's catalogue accepts), shown by their Unicode code points. A small everyday set, as
 * Zulip's "popular" row; a reaction someone else made with any other emoji shows and toggles too.
 */
export const PICKER_EMOJI: { name: string; code: string }[] = [
  { name: '+1', code: '1f44d' },
  { name: 'heart', code: '2764' },
  { name: 'tada', code: '1f389' },
  { name: 'smile', code: '1f604' },
  { name: 'joy', code: '1f602' },
  { name: 'thinking_face', code: '1f914' },
  { name: 'eyes', code: '1f440' },
  { name: 'rocket', code: '1f680' },
  { name: 'white_check_mark', code: '2705' },
  { name: 'clap', code: '1f44f' },
  { name: 'fire', code: '1f525' },
  { name: 'pray', code: '1f64f' },
];

/** The character(s) of a Unicode emoji code (`1f44d`, `1f468-200d-1f4bb`); other kinds show as `:name:`. */
export function emojiGlyph(code: string, type: string, name: string): string {
  if (type !== 'unicode_emoji') return `:${name}:`;
  try {
    return String.fromCodePoint(...code.split('-').map((part) => Number.parseInt(part, 16)));
  } catch {
    return `:${name}:`;
  }
}
