import { parseEmojiNames } from '../compose/autocomplete';

let names: Promise<{ name: string; code: string }[]> | undefined;

/** Every emoji's name and code, loaded (a chunk of its own, virtual:emoji-names) the first time something asks. */
export const loadEmojiNames = () => (names ??= import('virtual:emoji-names').then((module) => parseEmojiNames(module.default)));

/** The emoji whose name starts with the query, then those with a word starting with it. */
export function findEmoji(all: { name: string; code: string }[], query: string, limit: number): { name: string; code: string }[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, '_');
  if (q === '') return [];
  const starts = all.filter((entry) => entry.name.startsWith(q));
  const words = all.filter((entry) => !entry.name.startsWith(q) && entry.name.includes(`_${q}`));
  return [...starts, ...words].slice(0, limit);
}
