/**
 * RFC 6570 URI templates, as Zulip's linkifiers and playgrounds use them (the `uri_template`
 * Python package): the syntax of every level (1–4) is accepted and expanded; values are
 * strings (a linkifier's named groups, a playground's code), so explode modifiers change
 * nothing and a group that did not take part in the match is undefined (left out).
 */

interface VarSpec {
  name: string;
  /** `:N`: at most N characters of the value. */
  prefix?: number;
}

interface Expression {
  operator: Operator;
  vars: VarSpec[];
}

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** The literal text and expressions of a template, in order. */
export type ParsedTemplate = (string | Expression)[];

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
/** Operators RFC 6570 reserves for future extensions: a template using them is invalid. */
const RESERVED_OPERATORS = new Set(['=', ',', '!', '@', '|']);
/** varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded. */
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const VARSPEC = /^(.*?)(?::([1-9][0-9]{0,3})|(\*))?$/;

/** The template's parts, or null when it is not a valid template. */
export function parseTemplate(template: string): ParsedTemplate | null {
  const parts: ParsedTemplate = [];
  let literal = '';
  for (let i = 0; i < template.length; i++) {
    const char = template[i];
    if (char === '}') return null;
    if (char !== '{') {
      literal += char;
      continue;
    }
    const end = template.indexOf('}', i + 1);
    if (end < 0) return null;
    const body = template.slice(i + 1, end);
    if (body.includes('{')) return null;
    const expression = parseExpression(body);
    if (!expression) return null;
    if (literal) parts.push(literal);
    literal = '';
    parts.push(expression);
    i = end;
  }
  if (literal) parts.push(literal);
  return parts;
}

function parseExpression(body: string): Expression | null {
  let operator: Operator = '';
  let list = body;
  if (OPERATORS.has(body[0])) {
    operator = body[0] as Operator;
    list = body.slice(1);
  } else if (RESERVED_OPERATORS.has(body[0])) {
    return null;
  }
  if (!list) return null;
  const vars: VarSpec[] = [];
  for (const spec of list.split(',')) {
    const match = VARSPEC.exec(spec)!;
    if (!VARNAME.test(match[1])) return null;
    vars.push(match[2] ? { name: match[1], prefix: Number(match[2]) } : { name: match[1] });
  }
  return { operator, vars };
}

/** Every variable the template names, once each. */
export function templateVariables(parsed: ParsedTemplate): Set<string> {
  const names = new Set<string>();
  for (const part of parsed) if (typeof part !== 'string') for (const spec of part.vars) names.add(spec.name);
  return names;
}

const OPERATOR_RULES: Record<Operator, { first: string; separator: string; named: boolean; ifEmpty: string; reserved: boolean }> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', reserved: false },
};

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/** Percent-encodes UTF-8 bytes of what the operator does not allow (reserved expansion keeps pct-encoded triplets). */
function encode(value: string, reserved: boolean): string {
  let out = '';
  const chars = Array.from(value);
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (UNRESERVED.test(char) || (reserved && RESERVED.test(char))) out += char;
    else if (reserved && char === '%' && /^[0-9A-Fa-f]{2}$/.test(chars.slice(i + 1, i + 3).join(''))) out += char;
    else out += encodeURIComponent(char).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return out;
}

/** The template expanded with these values; an undefined value leaves its variable out. */
export function expandTemplate(parsed: ParsedTemplate, values: Record<string, string | undefined>): string {
  let out = '';
  for (const part of parsed) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const rule = OPERATOR_RULES[part.operator];
    const expanded: string[] = [];
    for (const spec of part.vars) {
      const raw = values[spec.name];
      if (raw === undefined) continue;
      const value = spec.prefix !== undefined ? Array.from(raw).slice(0, spec.prefix).join('') : raw;
      const encoded = encode(value, rule.reserved);
      if (!rule.named) expanded.push(encoded);
      else expanded.push(value === '' ? `${spec.name}${rule.ifEmpty}` : `${spec.name}=${encoded}`);
    }
    if (expanded.length > 0) out += rule.first + expanded.join(rule.separator);
  }
  return out;
}
