import { z } from 'zod';

/**
 * The named schemas of the HTTP API: each becomes `#/components/schemas/<id>` in the OpenAPI
 * document, and every place that uses it refers to it there.
 */
export const apiSchemas = z.registry<{ id: string; description?: string }>();

/** Registers `schema` as the API's component `id` and returns it unchanged. */
export function apiSchema<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  apiSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}

/** A success body with nothing but `result` and `msg`. */
export const emptyResponse = z.object({});

/** The integer types Zulip uses for IDs, counts and timestamps. */
export const int = () => z.number().int();

/**
 * The error envelope every failure is answered with: `code` names the error, `msg` says it for
 * a person, and some codes add keys of their own (`var_name`, `stream`, `retry-after`, …).
 */
export const errorBodySchema = apiSchema(
  'ErrorBody',
  z
    .object({
      result: z.literal('error'),
      msg: z.string(),
      code: z.string(),
    })
    .catchall(z.unknown()),
);
