import argon2 from 'argon2';

/** argon2id with the library's defaults (OWASP-grade memory and time cost). */
export const hashPassword = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id });

/** A hash of nothing in particular, checked when the user is unknown so timing reveals nothing. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (!hash) {
    decoy ??= hashPassword('decoy password that no account has');
    await argon2.verify(await decoy, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}

/** Zulip's minimum for a new password set by an administrator or the command line. */
export const MIN_PASSWORD_LENGTH = 6;
