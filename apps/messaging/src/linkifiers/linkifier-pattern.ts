/**
 * Linkifier patterns. Zulip compiles them with RE2 (zerver/models/linkifiers.py, and applies
 * them with it in zerver/lib/markdown): Python-style named groups `(?P<name>…)`, no
 * backreferences or lookaround, matching in linear time. We have no RE2, so a pattern is read
 * here once, checked against RE2's syntax (refused with RE2's texts where we know them) and
 * translated to an equivalent JavaScript RegExp (`u` flag): named groups, RE2's ASCII `\s`,
 * `\pL`-style classes, POSIX classes, literal braces and escaped punctuation, a leading `(?i)`.
 *
 * JavaScript's engine backtracks, so a pattern RE2 would run in linear time could take
 * exponential time here. Guards, all refused when a linkifier is added or changed:
 * - at most MAX_PATTERN_LENGTH characters (RE2's own "pattern too large" text);
 * - no repeated group (`*`, `+`, `{n,}`, `{n,m}` with m > 1) that itself contains a repetition
 *   or an alternation: `(a+)+`, `(a|ab)*`, `(\w+\s?)*` (the classic catastrophic shapes);
 * - no backreferences or lookaround (RE2 refuses them too).
 * What remains possible is polynomial backtracking of several adjacent unbounded repetitions
 * over the same characters (`\w+\w+\w+`), bounded by the text rendering gives a pattern: one
 * text run of one message (at most 10,000 characters).
 */

/** The groups Zulip wraps every pattern in (prepare_linkifier_pattern). */
export const BEFORE_GROUP = 'linkifier_before_match';
export const OUTER_GROUP = 'linkifier_actual_match';
export const AFTER_GROUP = 'linkifier_after_match';

export const MAX_PATTERN_LENGTH = 1000;

/** A pattern read: its JavaScript form and named groups, or RE2's reason for refusing it. */
export type ReadPattern = { ok: true; source: string; flags: string; groups: string[] } | { ok: false; error: string };

const GENERAL_CATEGORIES = new Set(
  'L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po S Sm Sc Sk So Z Zs Zl Zp C Cc Cf Cs Co Cn'.split(' '),
);
const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};
/** Characters a `u`-mode RegExp lets one escape outside a class. */
const SYNTAX = new Set([...'^$\\.*+?()[]{}|/']);
const ASCII_SPACE = '\\t\\n\\f\\r ';

class Refused extends Error {}
const refuse = (text: string): never => {
  throw new Refused(text);
};

const cache = new Map<string, ReadPattern>();

/** Reads a pattern (remembered: linkifiers are few and change rarely). */
export function readPattern(pattern: string): ReadPattern {
  let read = cache.get(pattern);
  if (!read) {
    read = translate(pattern);
    if (cache.size >= 10_000) cache.clear();
    cache.set(pattern, read);
  }
  return read;
}

interface Group {
  start: number;
  /** Contains a repetition (anything but `?`, `{0,1}`, `{1}`) or an alternation. */
  risky: boolean;
  outLength: number;
}

function translate(pattern: string): ReadPattern {
  try {
    if ([...pattern].length > MAX_PATTERN_LENGTH) refuse('pattern too large - compile failed');
    let flags = '';
    let i = 0;
    if (pattern.startsWith('(?i)')) {
      flags = 'i';
      i = 4;
    }
    let out = '';
    const groups: string[] = [];
    const stack: Group[] = [];
    let top: Group = { start: 0, risky: false, outLength: 0 };
    /** What a quantifier may follow: an atom just written (its output start, and a group closed there). */
    let atom: { outStart: number; group?: Group; patternStart: number } | null = null;

    while (i < pattern.length) {
      const char = pattern[i];
      if (char === '\\') {
        const { text, length } = escape(pattern, i, false);
        atom = { outStart: out.length, patternStart: i };
        out += text;
        i += length;
      } else if (char === '[') {
        const { text, length } = characterClass(pattern, i);
        atom = { outStart: out.length, patternStart: i };
        out += text;
        i += length;
      } else if (char === '(') {
        const opened = openGroup(pattern, i, groups);
        stack.push(top);
        top = { start: i, risky: false, outLength: out.length };
        out += opened.text;
        i += opened.length;
        atom = null;
      } else if (char === ')') {
        if (stack.length === 0) refuse(`unexpected ): ${pattern}`);
        const closed = top;
        top = stack.pop()!;
        if (closed.risky) top.risky = true;
        out += ')';
        atom = { outStart: closed.outLength, group: closed, patternStart: closed.start };
        i += 1;
      } else if (char === '|') {
        top.risky = true;
        out += '|';
        atom = null;
        i += 1;
      } else if (char === '*' || char === '+' || char === '?' || (char === '{' && repeatAt(pattern, i))) {
        const repeat = quantifier(pattern, i);
        if (!atom) refuse(`missing argument to repetition operator: ${repeat.text}`);
        if (repeat.repeats) {
          if (atom!.group?.risky) refuse(`nested repetition is not supported: ${pattern.slice(atom!.patternStart, i + repeat.length)}`);
          top.risky = true;
        }
        out += repeat.text;
        i += repeat.length;
        atom = null;
      } else if (char === '^' || char === '$') {
        out += char;
        atom = null;
        i += 1;
      } else {
        // A literal (a lone `{`, `}` or `]` too, as RE2 reads them).
        atom = { outStart: out.length, patternStart: i };
        const code = pattern.codePointAt(i)!;
        const literal = String.fromCodePoint(code);
        out += char === '.' ? '.' : literalText(literal);
        i += literal.length;
      }
    }
    if (stack.length > 0) refuse(`missing ): ${pattern}`);
    try {
      new RegExp(out, `u${flags}`);
    } catch (error) {
      refuse(String((error as Error).message).replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, '').toLowerCase());
    }
    return { ok: true, source: out, flags, groups };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, error: error.message };
    throw error;
  }
}

/** A character outside a class, escaped when the `u` flag needs it. */
const literalText = (char: string) => (SYNTAX.has(char) ? `\\${char}` : char);

function openGroup(pattern: string, i: number, groups: string[]): { text: string; length: number } {
  if (pattern[i + 1] !== '?') return { text: '(', length: 1 };
  if (pattern[i + 2] === ':') return { text: '(?:', length: 3 };
  const named = /^\(\?P?<([^>]*)>/.exec(pattern.slice(i));
  if (named && !(pattern[i + 2] === '<' && (pattern[i + 3] === '=' || pattern[i + 3] === '!'))) {
    const name = named[1];
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || groups.includes(name)) refuse(`invalid named capture group: ${named[0]}`);
    groups.push(name);
    return { text: `(?<${name}>`, length: named[0].length };
  }
  if (pattern.startsWith('(?P<', i)) refuse(`invalid named capture group: ${pattern.slice(i)}`);
  // Lookaround, backreference-by-name, inline flags other than a leading (?i): RE2 refuses
  // most of them; JavaScript cannot express the flags.
  const operator = /^\(\?(?:P=|P>|<=|<!|[=!]|[a-zA-Z-]*[:)]?)/.exec(pattern.slice(i))![0];
  return refuse(`invalid perl operator: ${operator}`);
}

/** `{n}`, `{n,}`, `{n,m}` at `i` (otherwise a `{` is a literal, as in RE2). */
const repeatAt = (pattern: string, i: number) => /^\{\d+(?:,\d*)?\}/.test(pattern.slice(i));

function quantifier(pattern: string, i: number): { text: string; length: number; repeats: boolean } {
  let length: number;
  let repeats: boolean;
  if (pattern[i] === '{') {
    const match = /^\{(\d+)(?:(,)(\d*))?\}/.exec(pattern.slice(i))!;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    if (min > 1000 || (max !== Infinity && (max > 1000 || max < min))) refuse(`bad repetition operator: ${match[0]}`);
    length = match[0].length;
    repeats = max > 1;
  } else {
    length = 1;
    repeats = pattern[i] !== '?';
  }
  if (pattern[i + length] === '?') length += 1; // lazy
  const next = pattern[i + length];
  if (next === '*' || next === '+' || next === '?' || (next === '{' && repeatAt(pattern, i + length))) {
    const run = /^(?:[*+?]|\{\d+(?:,\d*)?\})+/.exec(pattern.slice(i))![0];
    refuse(`bad repetition operator: ${run}`);
  }
  return { text: pattern.slice(i, i + length), length, repeats };
}

/** An escape at `i`: its JavaScript text, and how many pattern characters it took. */
function escape(pattern: string, i: number, inClass: boolean): { text: string; length: number } {
  const next = pattern[i + 1];
  if (next === undefined) refuse('trailing \\');
  switch (next) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 'n':
    case 't':
    case 'r':
    case 'f':
    case 'v':
      return { text: `\\${next}`, length: 2 };
    case 'b':
    case 'B':
      if (inClass) refuse(`invalid escape sequence: \\${next}`);
      return { text: `\\${next}`, length: 2 };
    case 's':
      return { text: inClass ? ASCII_SPACE : `[${ASCII_SPACE}]`, length: 2 };
    case 'S':
      if (inClass) refuse('invalid escape sequence: \\S');
      return { text: `[^${ASCII_SPACE}]`, length: 2 };
    case 'A':
      if (inClass) refuse('invalid escape sequence: \\A');
      return { text: '^', length: 2 };
    case 'z':
      if (inClass) refuse('invalid escape sequence: \\z');
      return { text: '$', length: 2 };
    case 'x': {
      const braced = /^\\x\{([0-9A-Fa-f]{1,6})\}/.exec(pattern.slice(i));
      if (braced && parseInt(braced[1], 16) <= 0x10ffff) return { text: `\\u{${braced[1]}}`, length: braced[0].length };
      const plain = /^\\x[0-9A-Fa-f]{2}/.exec(pattern.slice(i));
      if (plain) return { text: plain[0], length: 4 };
      return refuse(`invalid escape sequence: ${pattern.slice(i, i + 4)}`);
    }
    case 'p':
    case 'P': {
      const match = /^\\[pP](?:\{(\^?)([A-Za-z_]+)\}|([A-Za-z]))/.exec(pattern.slice(i));
      if (!match) refuse(`invalid character class range: ${pattern.slice(i, i + 3)}`);
      const name = match![2] ?? match![3];
      const negated = (next === 'P') !== (match![1] === '^');
      const body = name === 'Any' ? null : GENERAL_CATEGORIES.has(name) ? name : `Script=${name}`;
      if (body !== null) {
        try {
          new RegExp(`\\p{${body}}`, 'u');
        } catch {
          refuse(`invalid character class range: ${match![0]}`);
        }
      }
      const text = body === null ? (negated ? '[^\\s\\S]' : '[\\s\\S]') : `\\${negated ? 'P' : 'p'}{${body}}`;
      return { text: inClass && body === null ? (negated ? '' : '\\s\\S') : text, length: match![0].length };
    }
    default:
      if (/[0-9]/.test(next)) {
        if (next === '0' && !/[0-9]/.test(pattern[i + 2] ?? '')) return { text: '\\0', length: 2 };
        return refuse(`invalid escape sequence: \\${next}`);
      }
      if (/[A-Za-z]/.test(next)) return refuse(`invalid escape sequence: \\${next}`);
      {
        // Escaped punctuation (or any other character) stands for itself.
        const literal = String.fromCodePoint(pattern.codePointAt(i + 1)!);
        const text = inClass ? (/[\\\]^-]/.test(literal) ? `\\${literal}` : literal) : literalText(literal);
        return { text, length: 1 + literal.length };
      }
  }
}

/** A bracketed class starting at `i`, with RE2's POSIX classes and escapes. */
function characterClass(pattern: string, i: number): { text: string; length: number } {
  let j = i + 1;
  let out = '[';
  if (pattern[j] === '^') {
    out += '^';
    j += 1;
  }
  // A `]` first is a literal.
  if (pattern[j] === ']') {
    out += '\\]';
    j += 1;
  }
  let previous: { char: string; code: number } | null = null;
  let ranged = false;
  while (j < pattern.length && pattern[j] !== ']') {
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(j));
    if (posix) {
      const ranges = POSIX_CLASSES[posix[2]];
      if (!ranges || posix[1]) refuse(`invalid character class range: ${posix[0]}`);
      out += ranges;
      j += posix[0].length;
      previous = null;
      continue;
    }
    let char: string;
    let text: string;
    let length: number;
    if (pattern[j] === '\\') {
      ({ text, length } = escape(pattern, j, true));
      const single = /^\\(?:x[0-9A-Fa-f]{2}|u\{[0-9A-Fa-f]+\}|[\\\]^-])$|^[^\\]$/u.test(text);
      char = single ? decodeSingle(text) : '';
    } else {
      char = String.fromCodePoint(pattern.codePointAt(j)!);
      length = char.length;
      text = char === '[' ? '\\[' : char === '^' ? '\\^' : char;
    }
    if (ranged) {
      if (!previous || !char) refuse(`invalid character class range: ${pattern.slice(j - 2, j + length)}`);
      if (char.codePointAt(0)! < previous!.code) refuse(`invalid character class range: ${previous!.char}-${char}`);
      ranged = false;
      previous = null;
      out += text;
      j += length;
      continue;
    }
    if (pattern[j] === '-' && previous && pattern[j + 1] !== ']') {
      ranged = true;
      out += '-';
      j += 1;
      continue;
    }
    out += pattern[j] === '-' ? '\\-' : text;
    previous = char ? { char, code: char.codePointAt(0)! } : null;
    j += length;
  }
  if (j >= pattern.length) refuse(`missing ]: ${pattern.slice(i)}`);
  return { text: `${out}]`, length: j + 1 - i };
}

function decodeSingle(text: string): string {
  if (!text.startsWith('\\')) return text;
  if (text.startsWith('\\x')) return String.fromCodePoint(parseInt(text.slice(2), 16));
  if (text.startsWith('\\u{')) return String.fromCodePoint(parseInt(text.slice(3, -1), 16));
  return text.slice(1);
}

/**
 * Zulip's prepare_linkifier_pattern: a match starts the text or follows whitespace (any Unicode
 * separator, NEL) or one of `'"(,:<`, and is not followed by a letter or digit.
 */
const prepared = (source: string) =>
  `(?<${BEFORE_GROUP}>^|[${ASCII_SPACE}]|\\u0085|\\p{Z}|['"(,:<])(?<${OUTER_GROUP}>${source})(?<${AFTER_GROUP}>$|[^\\p{L}\\p{N}])`;

/** One match: where the linked text starts and ends, and the named groups. */
export interface LinkifierMatch {
  start: number;
  end: number;
  /** The text matched by the pattern itself (without the boundary characters). */
  text: string;
  /** Named groups; undefined for a group that did not take part. */
  groups: Record<string, string | undefined>;
  /** The match began at the start of the text with no boundary character (`^`). */
  atStart: boolean;
}

export type LinkifierMatcher = (text: string, from: number) => LinkifierMatch | null;

/** A pattern ready to apply; null when it cannot be used (Zulip then matches nothing). */
export function preparedMatcher(pattern: string): LinkifierMatcher | null {
  const read = readPattern(pattern);
  if (!read.ok) return null;
  let regex: RegExp;
  try {
    regex = new RegExp(prepared(read.source), `gu${read.flags}`);
  } catch {
    return null; // a group named like the wrapper's
  }
  return (text, from) => {
    regex.lastIndex = from;
    const match = regex.exec(text);
    if (!match) return null;
    const groups = (match.groups ?? {}) as Record<string, string | undefined>;
    const before = groups[BEFORE_GROUP] ?? '';
    const outer = groups[OUTER_GROUP] ?? '';
    const start = match.index + before.length;
    return { start, end: start + outer.length, text: outer, groups, atStart: match.index === 0 && before === '' };
  };
}
