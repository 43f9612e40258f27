/**
 * Client text on its way to Postgres: `text` and `jsonb` refuse NUL (jsonb's "unsupported
 * Unicode escape sequence", text's "invalid byte sequence"), and a lone surrogate is no UTF-8.
 * Names and metadata are cleaned (NUL dropped, as Zulip's sanitize_name drops it; a lone
 * surrogate becomes U+FFFD); a lookup key that holds either names nothing.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function storableText(value: string): string {
  return value.replace(/\0/g, '').replace(LONE_SURROGATE, '\ufffd');
}

export function isStorableText(value: string): boolean {
  return storableText(value) === value;
}

/** A media type as HTTP carries it (`type/subtype`, then parameters of printable ASCII), short enough for its column (255). */
const MEDIA_TYPE = /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+(?:[ \t]*;[\x20-\x7e\t]*)?$/;

export function isMediaType(value: string): boolean {
  return value.length <= 255 && MEDIA_TYPE.test(value);
}
