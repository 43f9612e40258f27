/**
 * Zulip's sanitize_name (zerver/lib/upload): NFKC, keep only word characters, whitespace, "."
 * and "-", strip, collapse runs of "-" and whitespace into one "-"; nothing left, "." or ".."
 * become "uploaded-file". So a name can never hold a path separator or a NUL byte.
 * `strict` (tus, whose ids must be plain ASCII) keeps only ASCII word characters.
 */
export function sanitizeName(value: string, strict = false): string {
  let name = strict ? value.replace(/[^A-Za-z0-9_\s.-]/g, '') : value.normalize('NFKC').replace(/[^\p{L}\p{N}_\s.-]/gu, '');
  name = name.trim().replace(/[-\s]+/g, '-');
  if (name === '' || name === '.' || name === '..') return 'uploaded-file';
  return name;
}
