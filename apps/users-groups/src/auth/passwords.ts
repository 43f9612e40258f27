import type { FactoryProvider } from '@nestjs/common';
import { APP_CONFIG, overloaded, timeLeftMs, type AppConfig } from '@teamchat/platform';
import argon2 from 'argon2';

/** argon2id with the library's defaults (OWASP-grade memory and time cost). */
const argon2Hash = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id });

/** A hash of nothing in particular, checked when the user is unknown so timing reveals nothing. */
let decoy: Promise<string> | undefined;

async function argon2Check(hash: string | undefined, password: string): Promise<boolean> {
  if (!hash) {
    decoy ??= argon2Hash('decoy password that no account has');
    await argon2.verify(await decoy, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}

/** What a command does with its place in the hashing queue: one hash or one check. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string | undefined, password: string): Promise<boolean>;
}

/**
 * Runs `work` (a command's lookups, then its one hash or check) with a place in the hashing
 * queue, taken before the work starts. Hashing and checking passwords costs tens of
 * milliseconds of a core each, on libuv's threads (UV_THREADPOOL_SIZE, 4 by default): at most
 * that many run at once, the rest wait their turn. A command whose hash could not finish
 * before its deadline (the places taken ahead of it, at the recent average per hash) is
 * refused at once, before any work, its lookups included: under a burst, the callers beyond
 * what the process can serve in time hear 503 promptly, having changed nothing and cost
 * nothing, and those it took finish in time instead of all slowing together.
 */
export async function withPasswordHashing<T>(work: (hasher: PasswordHasher) => Promise<T>): Promise<T> {
  // With nobody ahead it is always tried: the average is only an estimate (a busy machine's can
  // exceed a whole deadline), and the commit's own deadline check still keeps the answer true.
  if (taken > 0 && (Math.floor(taken / PARALLEL_HASHES) + 1) * averageHashMs > timeLeftMs()) throw overloaded();
  taken++;
  try {
    return await work({ hash: (password) => hashing(() => argon2Hash(password)), verify: (hash, password) => hashing(() => argon2Check(hash, password)) });
  } finally {
    taken--;
  }
}

/** One hash, for a command with nothing to look up first. */
export const hashPassword = (password: string): Promise<string> => withPasswordHashing((hasher) => hasher.hash(password));

/** One check, for a command with nothing to look up first. */
export const verifyPassword = (hash: string | undefined, password: string): Promise<boolean> => withPasswordHashing((hasher) => hasher.verify(hash, password));

/** Runs one hash or check on a free thread, waiting for one if all are busy. */
async function hashing<T>(work: () => Promise<T>): Promise<T> {
  const waited = running >= PARALLEL_HASHES;
  if (!waited) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve)); // a finishing hash hands its thread over
  try {
    if (waited && averageHashMs > timeLeftMs()) throw overloaded(); // waited too long after all
    const started = performance.now();
    const result = await work();
    averageHashMs = averageHashMs * 0.8 + (performance.now() - started) * 0.2;
    return result;
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

const PARALLEL_HASHES = Number(process.env.UV_THREADPOOL_SIZE) || 4;
/** Places taken in the queue: commands hashing, waiting for a thread, or still looking up what they hash. */
let taken = 0;
let running = 0;
const waiting: (() => void)[] = [];
/** A moving average of one hash or check (ms), as measured here. */
let averageHashMs = 50;

/**
 * The server's password rules (Zulip's PASSWORD_MIN_LENGTH, 6, and PASSWORD_MIN_GUESSES,
 * 10,000), settings of the whole process as in Zulip: set once at start from the configuration
 * (`configurePasswordRules`, by the service's module and the command line).
 */
let rules = { minLength: 6, minGuesses: 10000 };

export function configurePasswordRules(config: Pick<AppConfig, 'PASSWORD_MIN_LENGTH' | 'PASSWORD_MIN_GUESSES'>): void {
  rules = { minLength: config.PASSWORD_MIN_LENGTH, minGuesses: config.PASSWORD_MIN_GUESSES };
}

/** The service module's provider that applies the configured rules when the service starts. */
export const PASSWORD_RULES: FactoryProvider<boolean> = {
  provide: 'PASSWORD_RULES',
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => {
    configurePasswordRules(config);
    void calibrateHashing().catch(() => undefined); // beside the start, not before it: readiness does not wait on a hash
    return true;
  },
};

/**
 * One hash at start, timed: the admission of the first burst is judged by what a hash costs on
 * this machine, not by a guess (a busy or small machine hashes several times slower).
 */
async function calibrateHashing(): Promise<void> {
  const started = performance.now();
  await argon2.hash('calibration, not a password', { type: argon2.argon2id });
  averageHashMs = Math.max(averageHashMs, performance.now() - started);
}

/** At least PASSWORD_MIN_LENGTH characters: what a password set by an administrator or the command line needs. */
export const isLongEnough = (password: string): boolean => [...password].length >= rules.minLength;

/**
 * Passwords any guesser tries first, refused whatever their length: the head of the lists
 * zxcvbn ranks (Zulip refuses what zxcvbn says takes fewer than 10,000 guesses).
 */
const COMMON_PASSWORDS = new Set([
  'password', 'password1', 'password12', 'password123', '123456', '1234567', '12345678', '123456789', '1234567890',
  'qwerty', 'qwerty123', 'qwertyuiop', 'abc123', '111111', '123123', '000000', 'iloveyou', 'letmein', 'welcome',
  'monkey', 'dragon', 'football', 'baseball', 'sunshine', 'princess', 'master', 'shadow', 'superman', 'trustno1',
  'passw0rd', 'changeme', 'secret',
]);

/** A run of one character, or of consecutive ones up or down ("aaaaaa", "abcdef", "654321"). */
function isTrivialSequence(password: string): boolean {
  const codes = [...password].map((char) => char.codePointAt(0) ?? 0);
  const steps = new Set(codes.slice(1).map((code, i) => code - codes[i]));
  return steps.size === 1 && [0, 1, -1].includes([...steps][0]);
}

/**
 * Zulip's check_password_strength: at least PASSWORD_MIN_LENGTH (6) characters, and not
 * guessable within PASSWORD_MIN_GUESSES (10,000) as zxcvbn estimates it. zxcvbn is not a
 * dependency here, so the guess estimate is approximated by what it rates weakest: the most
 * common passwords and trivial runs. Those are refused by both; a few other weak passwords
 * zxcvbn would refuse are let through. PASSWORD_MIN_GUESSES 0 checks the length only.
 */
export function isStrongEnough(password: string): boolean {
  if (!isLongEnough(password)) return false;
  if (rules.minGuesses === 0) return true;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return false;
  return !isTrivialSequence(password);
}
