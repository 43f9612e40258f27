import { z } from 'zod';

/**
 * How one API parameter is declared. `wire` says how the text on the wire becomes a value:
 * `string` is taken as it is, `json` is parsed as JSON first (Zulip's `Json[...]`: lists,
 * objects, booleans and integers all arrive as JSON text). `schema` then checks the value.
 */
export class ParamSpec<T, Req extends boolean = boolean> {
  private constructor(
    readonly wire: 'string' | 'json',
    readonly schema: z.ZodType<T>,
    readonly required: Req,
    readonly defaultValue: T | undefined,
    readonly aliases: readonly string[],
  ) {}

  static of<T>(wire: 'string' | 'json', schema: z.ZodType<T>): ParamSpec<T, true> {
    return new ParamSpec(wire, schema, true, undefined, []);
  }

  /** Not required; absent means `undefined`. */
  optional(): ParamSpec<T, false> {
    return new ParamSpec<T, false>(this.wire, this.schema, false, undefined, this.aliases);
  }

  /** Not required; absent means `value`. */
  default(value: T): ParamSpec<T, true> & { readonly hasDefault: true } {
    const spec = new ParamSpec<T, true>(this.wire, this.schema, false as true, value, this.aliases);
    return Object.assign(spec, { hasDefault: true as const });
  }

  /** Other names the same parameter may arrive under (Zulip's `subject` for `topic`). */
  alias(...names: string[]): ParamSpec<T, Req> {
    return new ParamSpec(this.wire, this.schema, this.required, this.defaultValue, [...this.aliases, ...names]);
  }

  isRequired(): boolean {
    return this.required && this.defaultValue === undefined;
  }
}

/** The builders every endpoint declares its parameters with. */
export const param = {
  string: (schema: z.ZodType<string> = z.string()) => ParamSpec.of('string', schema),
  /** One of a fixed set of plain-text values. */
  oneOf: <const V extends readonly [string, ...string[]]>(values: V) =>
    ParamSpec.of('string', z.enum(values) as unknown as z.ZodType<V[number]>),
  bool: () => ParamSpec.of('json', z.boolean()),
  int: () => ParamSpec.of('json', z.number().int()),
  intList: () => ParamSpec.of('json', z.array(z.number().int())),
  json: <T>(schema: z.ZodType<T>) => ParamSpec.of('json', schema),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ParamSpecs = Record<string, ParamSpec<any, boolean>>;

/** The decoded values of a declaration: required or defaulted keys are always present. */
export type DecodedParams<S extends ParamSpecs> = {
  [K in keyof S]: S[K] extends ParamSpec<infer T, true> ? T : S[K] extends ParamSpec<infer T, false> ? T | undefined : never;
};
