import { LIMITS, badRequest } from '@teamchat/zulip';

/**
 * A full name as Zulip accepts it (zerver/lib/users.py check_full_name): trimmed, 1 to 100
 * characters, printable, none of * ` \ > " @, and not ending in `|<digits>` (which would read as
 * a mention's user id).
 */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length > LIMITS.maxFullNameLength) throw badRequest('Name too long!');
  if (length < 1) throw badRequest('Name too short!');
  if (/[\p{Cc}\p{Cs}*`\\>"@]/u.test(name)) throw badRequest('Invalid characters in name!');
  if (/\|\d+$/.test(raw)) throw badRequest('Invalid format!');
  return name;
}
