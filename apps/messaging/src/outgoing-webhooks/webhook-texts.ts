/**
 * Python's repr() of a webhook's answer, as Zulip's owner notification quotes it: `b'…'` for the
 * body's bytes (a refused status), `'…'` for its text (an answer Zulip could not use).
 */
export function pythonRepr(text: string, asBytes: boolean): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  const units = asBytes ? [...Buffer.from(text, 'utf8')].map((byte) => String.fromCharCode(byte)) : [...text];
  for (const ch of units) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || (asBytes && code > 0x7e)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${asBytes ? 'b' : ''}${quote}${out}${quote}`;
}

/** Zulip's hash_util_encode for a topic in a narrow URL. */
const encodeOperand = (text: string) => encodeURIComponent(text).replace(/\./g, '.2E').replace(/%/g, '.');

/**
 * Zulip's near_message_url: the triggering message in its conversation, for the owner's
 * notification (`#narrow/channel/<id>-<name>/topic/<topic>/near/<id>`, or
 * `#narrow/dm/<ids>/near/<id>` with the other participants).
 */
export function nearMessageUrl(realmUrl: string, message: Record<string, unknown>, exceptUserId: number): string {
  const id = String(message.id);
  if (message.type === 'stream') {
    const name = String(message.display_recipient ?? '');
    const channel = `${String(message.stream_id)}-${encodeOperand(name.replace(/\s+/g, '-'))}`;
    return `${realmUrl}/#narrow/channel/${channel}/topic/${encodeOperand(String(message.subject ?? ''))}/near/${id}`;
  }
  const participants = Array.isArray(message.display_recipient) ? (message.display_recipient as { id: number }[]).map((r) => r.id) : [];
  const others = participants.filter((userId) => userId !== exceptUserId).sort((a, b) => a - b);
  return `${realmUrl}/#narrow/dm/${others.join(',')}/near/${id}`;
}
