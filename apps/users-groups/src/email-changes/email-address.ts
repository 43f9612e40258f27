import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { LIMITS } from '@teamchat/zulip';

// Django's EmailValidator (django/core/validators.py), which Zulip's validate_email_is_valid uses.
const DOT_ATOM = /^[-!#$%&'*+/=?^_`{}|~0-9A-Z]+(\.[-!#$%&'*+/=?^_`{}|~0-9A-Z]+)*$/i;
// eslint-disable-next-line no-control-regex
const QUOTED_STRING = /^"([\x01-\x08\x0b\x0c\x0e-\x1f!#-[\]-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])*"$/i;
const DOMAIN = /^((?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+)(?:[A-Z0-9-]{2,63}(?<!-))$/i;
const LITERAL = /^\[([A-F0-9:.]+)\]$/i;

function isValidDomain(domain: string): boolean {
  if (domain === 'localhost' || DOMAIN.test(domain)) return true;
  const literal = LITERAL.exec(domain);
  if (literal) return isIP(literal[1]) !== 0;
  // An internationalised name is checked in its ASCII (punycode) form.
  const ascii = domainToASCII(domain);
  return ascii !== '' && ascii !== domain && DOMAIN.test(ascii);
}

/**
 * Whether Django would take `email` as an address: a dot-atom or quoted local part, `@`, and a
 * host name with a top-level label (or `localhost`, or a bracketed IP literal). Addresses
 * longer than a user's address may be (254) are refused too.
 */
export function isValidEmailAddress(email: string): boolean {
  if (!email || !email.includes('@') || email.length > LIMITS.maxEmailLength) return false;
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!DOT_ATOM.test(local) && !QUOTED_STRING.test(local)) return false;
  return isValidDomain(domain);
}
