import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Zulip's API keys: 32 random alphanumerics. */
export const API_KEY_LENGTH = 32;

export function generateApiKey(): string {
  let key = '';
  for (let i = 0; i < API_KEY_LENGTH; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}

export const isWellFormedApiKey = (key: string): boolean => key.length === API_KEY_LENGTH && /^[A-Za-z0-9]+$/.test(key);
