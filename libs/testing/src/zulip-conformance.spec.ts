import { conformanceErrors } from './zulip-conformance';

const identity = (schema: Record<string, unknown>) => schema;
const check = (ours: Record<string, unknown>, theirs: Record<string, unknown>) => conformanceErrors(ours, theirs, 'r', identity);

describe('conformanceErrors', () => {
  const theirs = {
    type: 'object',
    properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string', enum: ['a', 'b'] }, when: { type: 'number', nullable: true } },
    required: ['id'],
  };

  it('accepts a schema that promises only what the reference allows', () => {
    expect(
      check(
        { type: 'object', properties: { id: { type: 'integer' }, tag: { const: 'a' }, when: { anyOf: [{ type: 'integer' }, { type: 'null' }] } }, required: ['id'] },
        theirs,
      ),
    ).toEqual([]);
  });

  it('names a property the reference does not declare, a wrong type, a value outside its enum and an unexpected null', () => {
    expect(
      check(
        {
          type: 'object',
          properties: { id: { type: 'integer' }, extra: { type: 'string' }, name: { type: 'boolean' }, tag: { enum: ['a', 'c'] } },
          required: ['id'],
        },
        theirs,
      ),
    ).toEqual(['r.extra: not in Zulip\'s description', "r.name: boolean here, string in Zulip's", 'r.tag: values ["c"] are not among Zulip\'s ["a","b"]']);
    expect(check({ type: 'object', properties: { id: { type: 'integer' }, name: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, required: ['id'] }, theirs)).toEqual([
      "r.name: may be null here, never in Zulip's",
    ]);
  });

  it('names a required property that is missing or optional', () => {
    expect(check({ type: 'object', properties: {} }, theirs)).toEqual(["r.id: required in Zulip's, not returned here"]);
    expect(check({ type: 'object', properties: { id: { type: 'integer' } } }, theirs)).toEqual(["r.id: required in Zulip's, optional here"]);
  });

  it('matches each of our union branches against the reference branch that fits it, inside arrays', () => {
    const events = { type: 'array', items: { oneOf: [{ type: 'object', properties: { type: { enum: ['x'] }, a: { type: 'string' } } }, { type: 'object', properties: { type: { enum: ['y'] } } }] } };
    const ok = { type: 'array', items: { anyOf: [{ type: 'object', properties: { type: { const: 'x' }, a: { type: 'string' } } }, { type: 'object', properties: { type: { const: 'y' } } }] } };
    expect(check(ok, events)).toEqual([]);
    const bad = { type: 'array', items: { anyOf: [{ type: 'object', properties: { type: { const: 'y' }, a: { type: 'string' } } }] } };
    expect(check(bad, events)).toEqual(["r[].a: not in Zulip's description"]);
  });
});
