import { z } from 'zod';
import { ZulipError } from '../errors';
import { decodeParams, type RawParams } from './decode-params';
import { param, type ParamSpecs } from './param-spec';

/** The ZulipError a decode throws, as the gateway would write it. */
function failure(specs: ParamSpecs, raw: RawParams): { status: number; code: string; msg: string; extra: Record<string, unknown> } {
  try {
    decodeParams(specs, raw);
  } catch (error) {
    if (!(error instanceof ZulipError)) throw error;
    return { status: error.status, code: error.code, msg: error.message, extra: error.extra };
  }
  throw new Error('expected the decode to fail');
}

const badRequest = (msg: string) => ({ status: 400, code: 'BAD_REQUEST', msg, extra: {} });

/** Raw variables with own keys that are also Object.prototype names. */
const rawWithOwnKeys = (json: string): RawParams => JSON.parse(json) as RawParams;

describe('decodeParams', () => {
  describe('JSON-encoded lists', () => {
    const specs = { user_ids: param.intList() };

    it('decodes a JSON list of integers', () => {
      expect(decodeParams(specs, { user_ids: '[1,2]' }).values).toEqual({ user_ids: [1, 2] });
      expect(decodeParams(specs, { user_ids: '[]' }).values).toEqual({ user_ids: [] });
    });

    it('names the position of the first element that is not an integer', () => {
      expect(failure(specs, { user_ids: '[1,"x"]' })).toEqual(badRequest('user_ids[1] is not an integer'));
      expect(failure(specs, { user_ids: '[1,2,2.5]' })).toEqual(badRequest('user_ids[2] is not an integer'));
    });

    it('rejects text that is not JSON', () => {
      expect(failure(specs, { user_ids: '[1,2' })).toEqual(badRequest('user_ids is not valid JSON'));
      expect(failure(specs, { user_ids: '1,2' })).toEqual(badRequest('user_ids is not valid JSON'));
    });

    it('rejects JSON that is not a list', () => {
      expect(failure(specs, { user_ids: '5' })).toEqual(badRequest('user_ids is not a list'));
      expect(failure(specs, { user_ids: '{"0":1}' })).toEqual(badRequest('user_ids is not a list'));
    });
  });

  describe('booleans', () => {
    const specs = { flag: param.bool() };

    it('accepts only the JSON literals true and false', () => {
      expect(decodeParams(specs, { flag: 'true' }).values).toEqual({ flag: true });
      expect(decodeParams(specs, { flag: 'false' }).values).toEqual({ flag: false });
    });

    it('rejects JSON values of another type as not a boolean', () => {
      expect(failure(specs, { flag: '1' })).toEqual(badRequest('flag is not a boolean'));
      expect(failure(specs, { flag: '0' })).toEqual(badRequest('flag is not a boolean'));
      expect(failure(specs, { flag: '"true"' })).toEqual(badRequest('flag is not a boolean'));
      expect(failure(specs, { flag: 'null' })).toEqual(badRequest('flag is not a boolean'));
    });

    it('rejects words that are not JSON, as Zulip does (pydantic json_invalid)', () => {
      expect(failure(specs, { flag: 'yes' })).toEqual(badRequest('flag is not valid JSON'));
      expect(failure(specs, { flag: 'True' })).toEqual(badRequest('flag is not valid JSON'));
      expect(failure(specs, { flag: '' })).toEqual(badRequest('flag is not valid JSON'));
    });
  });

  describe('integers', () => {
    const specs = { n: param.int() };

    it('decodes a JSON integer', () => {
      expect(decodeParams(specs, { n: '42' }).values).toEqual({ n: 42 });
      expect(decodeParams(specs, { n: '-7' }).values).toEqual({ n: -7 });
    });

    it('rejects fractions, strings and booleans as not an integer', () => {
      expect(failure(specs, { n: '1.5' })).toEqual(badRequest('n is not an integer'));
      expect(failure(specs, { n: '"5"' })).toEqual(badRequest('n is not an integer'));
      expect(failure(specs, { n: 'true' })).toEqual(badRequest('n is not an integer'));
    });

    it('rejects a bare word as invalid JSON', () => {
      expect(failure(specs, { n: 'five' })).toEqual(badRequest('n is not valid JSON'));
    });
  });

  describe('strings', () => {
    it('takes a plain string as it is, without JSON decoding', () => {
      expect(decodeParams({ s: param.string() }, { s: '[1,2]' }).values).toEqual({ s: '[1,2]' });
      expect(decodeParams({ s: param.string() }, { s: '' }).values).toEqual({ s: '' });
    });

    it('reports length and blank limits with Zulip texts', () => {
      expect(failure({ s: param.string(z.string().max(3)) }, { s: 'abcd' })).toEqual(
        badRequest('s is too long (limit: 3 characters)'),
      );
      expect(failure({ s: param.string(z.string().trim().min(1)) }, { s: '   ' })).toEqual(badRequest('s cannot be blank'));
    });

    it('rejects a value outside a fixed set as Invalid', () => {
      expect(failure({ kind: param.oneOf(['stream', 'direct']) }, { kind: 'email' })).toEqual(badRequest('Invalid kind'));
    });
  });

  describe('null bytes', () => {
    it('rejects a null byte in a plain string', () => {
      expect(failure({ content: param.string() }, { content: 'hello\u0000world' })).toEqual(
        badRequest('content must not contain null bytes'),
      );
    });

    it('rejects an escaped null byte inside a JSON list, naming its position', () => {
      const specs = { names: param.json(z.array(z.string())) };
      expect(failure(specs, { names: '["ok","bad\\u0000"]' })).toEqual(badRequest('names[1] must not contain null bytes'));
    });

    it('rejects an escaped null byte inside a JSON object value or key', () => {
      const specs = { draft: param.json(z.record(z.string(), z.string())) };
      expect(failure(specs, { draft: '{"topic":"a\\u0000b"}' })).toEqual(badRequest('draft["topic"] must not contain null bytes'));
      expect(failure(specs, { draft: '{"to\\u0000pic":"a"}' })).toEqual(
        badRequest('draft["to\\u0000pic"] must not contain null bytes'),
      );
    });
  });

  describe('nesting', () => {
    const anything = { value: param.json(z.unknown()) };
    it('refuses JSON nested deeper than Zulip parses (1,024 levels) as invalid JSON, lists or objects', () => {
      expect(failure({ flag: param.bool() }, { flag: `${'['.repeat(10000)}${']'.repeat(10000)}` })).toEqual(badRequest('flag is not valid JSON'));
      expect(failure(anything, { value: `${'{"a":'.repeat(1025)}1${'}'.repeat(1025)}` })).toEqual(badRequest('value is not valid JSON'));
    });

    it('takes nesting up to the limit, and finds a NUL at its bottom', () => {
      const deepest = `${'['.repeat(1024)}"x"${']'.repeat(1024)}`;
      expect(decodeParams(anything, { value: deepest }).values.value).toBeDefined();
      const nul = `${'['.repeat(3)}"a\\u0000"${']'.repeat(3)}`;
      expect(failure(anything, { value: nul })).toEqual(badRequest('value[0][0][0] must not contain null bytes'));
    });

    it('turns a lone surrogate escape into U+FFFD, in values and keys, and keeps pairs', () => {
      expect(decodeParams(anything, { value: '["a\\ud800b", "\\ud83d\\ude00", {"\\udc00": "x"}]' }).values.value).toEqual([
        'a\ufffdb',
        '\u{1F600}',
        { '\ufffd': 'x' },
      ]);
    });

    it('walks a wide value without recursion', () => {
      const wide = JSON.stringify(Array.from({ length: 100000 }, (_, i) => [i, 'ok']));
      expect((decodeParams(anything, { value: wide }).values.value as unknown[]).length).toBe(100000);
    });
  });

  describe('required, defaulted and optional parameters', () => {
    it('reports a missing required parameter with its name', () => {
      expect(failure({ x: param.string() }, {})).toEqual({
        status: 400,
        code: 'REQUEST_VARIABLE_MISSING',
        msg: "Missing 'x' argument",
        extra: { var_name: 'x' },
      });
    });

    it('fills in defaults and leaves optional parameters undefined', () => {
      const specs = { gravatar: param.bool().default(true), ids: param.intList().optional() };
      const { values } = decodeParams(specs, {});
      expect(values).toEqual({ gravatar: true, ids: undefined });
      expect(Object.keys(values).sort()).toEqual(['gravatar', 'ids']);
    });

    it('uses a given value over the default', () => {
      expect(decodeParams({ gravatar: param.bool().default(true) }, { gravatar: 'false' }).values).toEqual({ gravatar: false });
    });
  });

  describe('aliases', () => {
    const specs = { topic: param.string().alias('subject') };

    it('accepts the parameter under its alias', () => {
      expect(decodeParams(specs, { subject: 'lunch' })).toEqual({ values: { topic: 'lunch' }, ignored: [] });
    });

    it('refuses a request that gives both names', () => {
      expect(failure(specs, { topic: 'a', subject: 'b' })).toEqual({
        status: 400,
        code: 'REQUEST_CONFUSING_VAR',
        msg: "Can't decide between 'topic' and 'subject' arguments",
        extra: {},
      });
    });

    it('names the canonical parameter when neither name is given', () => {
      expect(failure(specs, {})).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'topic' argument" });
    });
  });

  describe('texts decoded again', () => {
    it('gives the same value for a text it has decoded before, and refuses a bad one every time, under the name it came under', () => {
      const specs = { n: param.int().alias('number') };
      expect(decodeParams(specs, { n: '7' }).values).toEqual({ n: 7 });
      expect(decodeParams(specs, { number: '7' }).values).toEqual({ n: 7 });
      expect(failure(specs, { number: '7.5' })).toEqual(badRequest('number is not an integer'));
      expect(failure(specs, { n: '7.5' })).toEqual(badRequest('n is not an integer'));
    });

    it('hands out a fresh list or object each time (a caller may change the one it got)', () => {
      const specs = { ids: param.intList() };
      const first = decodeParams(specs, { ids: '[1,2]' }).values.ids;
      first.push(3);
      expect(decodeParams(specs, { ids: '[1,2]' }).values.ids).toEqual([1, 2]);
    });
  });

  describe('unknown parameters', () => {
    it('reports every unsupported name, sorted', () => {
      const { values, ignored } = decodeParams({ b: param.string() }, { zeta: '1', b: 'x', alpha: '2', Mid: '3' });
      expect(values).toEqual({ b: 'x' });
      expect(ignored).toEqual(['Mid', 'alpha', 'zeta']);
    });

    it('reports nothing when every parameter is supported', () => {
      expect(decodeParams({ b: param.string() }, { b: 'x' }).ignored).toEqual([]);
    });
  });

  describe('names that are also Object.prototype properties', () => {
    it('treats __proto__, constructor and toString in the request as ordinary unknown names', () => {
      const raw = rawWithOwnKeys('{"__proto__":"p","constructor":"c","toString":"t","x":"v"}');
      const { values, ignored } = decodeParams({ x: param.string() }, raw);
      expect(values).toEqual({ x: 'v' });
      expect(ignored).toEqual(['__proto__', 'constructor', 'toString']);
    });

    it('does not take an inherited property for a missing parameter', () => {
      expect(failure({ constructor: param.string() }, {})).toMatchObject({
        code: 'REQUEST_VARIABLE_MISSING',
        msg: "Missing 'constructor' argument",
      });
      expect(decodeParams({ toString: param.string().optional() }, {}).values.toString).toBeUndefined();
    });

    it('keeps the value of a parameter declared as __proto__ as a value, not a prototype', () => {
      const specs: ParamSpecs = {};
      Object.defineProperty(specs, '__proto__', { value: param.json(z.object({ a: z.number() })), enumerable: true });
      const { values, ignored } = decodeParams(specs, rawWithOwnKeys('{"__proto__":"{\\"a\\":1}"}'));
      expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
      expect(Object.prototype.hasOwnProperty.call(values, '__proto__')).toBe(true);
      expect(Object.getOwnPropertyDescriptor(values, '__proto__')?.value).toEqual({ a: 1 });
      expect((values as Record<string, unknown>).a).toBeUndefined();
      expect(ignored).toEqual([]);
    });

    it('does not let a JSON __proto__ key supply an object field', () => {
      const specs = { data: param.json(z.object({ a: z.number().optional() })) };
      const { values } = decodeParams(specs, { data: '{"__proto__":{"a":1}}' });
      expect(values.data.a).toBeUndefined();
      expect(({} as Record<string, unknown>).a).toBeUndefined();
    });
  });
});
