/** Zulip's UserMessage flag bits (zerver/models/messages.py AbstractUserMessage). */
export const Flag = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
  is_private: 2048,
} as const;

const NAMED = Object.entries(Flag) as [keyof typeof Flag, number][];

/** The flag names a client sees, with Zulip's legacy `wildcard_mentioned` for either wildcard. */
export function flagNames(bits: number): string[] {
  const names: string[] = NAMED.filter(([name, bit]) => name !== 'is_private' && (bits & bit) !== 0).map(([name]) => name);
  if (bits & (Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned)) names.push('wildcard_mentioned');
  return names;
}
