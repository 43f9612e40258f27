import { z } from 'zod';

interface SpecOptions<T> {
  required: boolean;
  defaultValue: T | undefined;
  aliases: readonly string[];
  /** The owning service checks null bytes itself, with its own message. */
  nullBytesAllowed: boolean;
}

/**
 * How one API parameter is declared. `wire` says how the text on the wire becomes a value:
 * `string` is taken as it is, `json` is parsed as JSON first (Zulip's `Json[...]`: lists,
 * objects, booleans and integers all arrive as JSON text). `schema` then checks the value.
 */
export class ParamSpec<T, Req extends boolean = boolean> {
  private constructor(
    readonly wire: 'string' | 'json',
    readonly schema: z.ZodType<T>,
    private readonly options: SpecOptions<T>,
  ) {}

  static of<T>(wire: 'string' | 'json', schema: z.ZodType<T>): ParamSpec<T, true> {
    return new ParamSpec(wire, schema, { required: true, defaultValue: undefined, aliases: [], nullBytesAllowed: false });
  }

  get required(): Req {
    return this.options.required as Req;
  }
  get defaultValue(): T | undefined {
    return this.options.defaultValue;
  }
  get aliases(): readonly string[] {
    return this.options.aliases;
  }
  get nullBytesAllowed(): boolean {
    return this.options.nullBytesAllowed;
  }

  /** Not required; absent means `undefined`. */
  optional(): ParamSpec<T, false> {
    return new ParamSpec<T, false>(this.wire, this.schema, { ...this.options, required: false, defaultValue: undefined });
  }

  /** Not required; absent means `value`. */
  default(value: T): ParamSpec<T, true> {
    return new ParamSpec<T, true>(this.wire, this.schema, { ...this.options, required: false, defaultValue: value });
  }

  /** Other names the same parameter may arrive under (Zulip's `subject` for `topic`). */
  alias(...names: string[]): ParamSpec<T, Req> {
    return new ParamSpec(this.wire, this.schema, { ...this.options, aliases: [...this.options.aliases, ...names] });
  }

  /** Lets null bytes through to the service, which refuses them with its own words. */
  allowNullBytes(): ParamSpec<T, Req> {
    return new ParamSpec(this.wire, this.schema, { ...this.options, nullBytesAllowed: true });
  }

  isRequired(): boolean {
    return this.options.required && this.options.defaultValue === undefined;
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
