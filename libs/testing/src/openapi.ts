import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '@teamchat/contracts';

type Schema = Record<string, unknown>;

const DOCUMENT_ID = 'teamchat-openapi';
let ajv: Ajv2020 | undefined;
let document: Schema | undefined;
const validators = new Map<string, ValidateFunction>();

/** The project's own OpenAPI document, as the gateway serves it. */
export function openApiDocument(): Schema {
  document ??= buildOpenApiDocument({ externalUrl: 'http://testserver.local' });
  return document;
}

function validatorFor(pointer: string): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema(openApiDocument(), DOCUMENT_ID);
  }
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The JSON pointer to the schema an operation answers `status` with: its success body for 200,
 * the error envelope otherwise.
 */
function responsePointer(method: string, route: string, status: number): string {
  const paths = openApiDocument().paths as Record<string, Record<string, Schema>>;
  const operation = paths[route]?.[method.toLowerCase()];
  if (!operation) throw new Error(`No operation ${method.toUpperCase()} ${route} in the project's OpenAPI document`);
  if (status !== 200) return '/components/schemas/ErrorBody';
  return `/paths/${escape(route)}/${method.toLowerCase()}/responses/200/content/application~1json/schema`;
}

/**
 * Jest helper: fails with the schema errors when `body` is not what the project's own OpenAPI
 * document (generated from libs/contracts) says `method route` answers with `status`.
 */
export function expectMatchesOpenApi(method: string, route: string, body: unknown, status = 200): void {
  const validate = validatorFor(responsePointer(method, route, status));
  if (validate(body)) return;
  throw new Error(
    `Response does not match ${method.toUpperCase()} ${route} ${status}:\n${JSON.stringify(validate.errors, null, 2)}\n` +
      `body: ${JSON.stringify(body).slice(0, 2000)}`,
  );
}
