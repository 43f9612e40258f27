import { readFileSync } from 'node:fs';

/** What one emoji-datasource entry says that the catalogue uses. */
interface DatasourceEntry {
  unified: string;
  short_names: string[];
}

/**
 * Names Zulip's own clients send that emoji-datasource does not have: Zulip names emoji from
 * its own table (tools/setup/emoji/emoji_names.py), which no package ships. These are the ones
 * its web app offers as default statuses and the everyday thumbs; everything else uses the
 * datasource's short names.
 */
const ZULIP_NAMES: Record<string, string> = {
  thumbs_up: '1f44d',
  thumbs_down: '1f44e',
  working_on_it: '1f6e0',
  hurt: '1f915',
  sick: '1f912',
  slight_smile: '1f642',
};

/**
 * Zulip's emoji code for a datasource `unified` value: lower-case hex code points joined by
 * dashes, without the emoji presentation selector FE0F (zerver/lib/emoji_utils.py).
 */
export function emojiCodeOf(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

/**
 * The Unicode emoji Zulip's status and reactions accept: name → code (Zulip's
 * name_to_codepoint) and the set of valid codes (the keys of its codepoint_to_name).
 */
export class EmojiCatalogue {
  private constructor(
    private readonly codesByName: ReadonlyMap<string, string>,
    private readonly codes: ReadonlySet<string>,
  ) {}

  static fromEntries(entries: readonly DatasourceEntry[], extraNames: Record<string, string> = {}): EmojiCatalogue {
    const codesByName = new Map<string, string>();
    const codes = new Set<string>();
    for (const entry of entries) {
      const code = emojiCodeOf(entry.unified);
      codes.add(code);
      for (const name of entry.short_names) if (!codesByName.has(name)) codesByName.set(name, code);
    }
    // An extra name never replaces a datasource name, and only names a code that exists.
    for (const [name, code] of Object.entries(extraNames)) {
      if (!codesByName.has(name) && codes.has(code)) codesByName.set(name, code);
    }
    return new EmojiCatalogue(codesByName, codes);
  }

  /** The code of the emoji called `name`, if any. */
  codeOf(name: string): string | undefined {
    return this.codesByName.get(name);
  }

  isCode(code: string): boolean {
    return this.codes.has(code);
  }

  /**
   * Every code with the names that select it, the canonical name first: the `code_to_names` of
   * Zulip's emoji_api_data.json (`server_emoji_data_url`). Derived from the same map `codeOf`
   * reads, so a client and the server agree on every name.
   */
  namesByCode(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [name, code] of this.codesByName) (out[code] ??= []).push(name);
    return out;
  }
}

let loaded: EmojiCatalogue | undefined;

/** The catalogue built from the installed emoji-datasource (read once, on first use). */
export function emojiCatalogue(): EmojiCatalogue {
  if (!loaded) {
    const entries = JSON.parse(readFileSync(require.resolve('emoji-datasource/emoji.json'), 'utf8')) as DatasourceEntry[];
    loaded = EmojiCatalogue.fromEntries(entries, ZULIP_NAMES);
  }
  return loaded;
}
