import { Factory, MailSink, PushRelayStandIn, TestSystem, loadZulipReference, zulipResponseErrors, type ApiResponse, type Credentials, type FormValue, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';

type Schema = Record<string, unknown>;

let serial = 0;

/** A name or text no other call gave: `prefix` and a suffix (no space: it may be an emoji's name). */
export const unique = (prefix: string): string => `${prefix}${Date.now().toString(36)}${(serial++).toString(36)}`;

/** An id no object of the example organization has. */
export const NO_SUCH_ID = 987_654_321;

/** One operation of Zulip's OpenAPI description. */
export interface DocumentedOperation {
  operationId: string;
  method: string;
  /** Zulip's path, with `{name}` placeholders. */
  route: string;
  /** Each documented parameter's example value (path, query and body alike). */
  examples: Record<string, unknown>;
}

/** Every operation of Zulip's description, by operationId (empty when the reference is not beside the repository). */
export function documentedOperations(): Map<string, DocumentedOperation> {
  const root = loadZulipReference();
  const operations = new Map<string, DocumentedOperation>();
  if (!root) return operations;
  const deref = (node: Schema): Schema =>
    typeof node.$ref === 'string' ? deref((node.$ref.slice(2).split('/') as string[]).reduce<Schema>((at, key) => at[key] as Schema, root)) : node;
  for (const [route, methods] of Object.entries(root.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (typeof operation.operationId !== 'string') continue;
      const examples: Record<string, unknown> = {};
      for (const parameter of ((operation.parameters as Schema[]) ?? []).map(deref)) {
        const schema = (parameter.schema ?? (Object.values((parameter.content as Record<string, Schema>) ?? {})[0]?.schema as Schema)) as Schema | undefined;
        const example = parameter.example ?? schema?.example;
        if (example !== undefined) examples[String(parameter.name)] = typeof example === 'string' && parameter.content ? JSON.parse(example) : example;
      }
      const body = (operation.requestBody as Schema | undefined)?.content as Record<string, { schema?: Schema }> | undefined;
      for (const media of Object.values(body ?? {})) {
        for (const [name, property] of Object.entries((deref(media.schema ?? {}).properties as Record<string, Schema>) ?? {})) {
          if (property.example !== undefined) examples[name] = property.example;
        }
      }
      operations.set(operation.operationId, { operationId: operation.operationId, method: method.toUpperCase(), route, examples });
    }
  }
  return operations;
}

/** What a documented example calls with: path parameters, then query (GET) or form fields. */
export interface ExampleCall {
  path?: Record<string, string | number>;
  params?: Record<string, FormValue>;
  /** Who calls: Iago (an administrator, the caller of Zulip's own examples) unless said. */
  as?: Credentials;
  multipart?: boolean;
}

/**
 * The organization Zulip's documented examples run against, shaped like Zulip's development
 * data (zerver/lib/dev_data): the `zulip` organization with Iago (administrator), Desdemona
 * (owner), Shiva (moderator), Hamlet, Othello, Cordelia and Prospero (members) and Polonius
 * (guest), channels Verona, Denmark, Scotland (public) and "core team" (private), and a few
 * messages. Each example asks its operation through HTTP, as Zulip's python client would, and
 * checks the answer against Zulip's own OpenAPI description of it.
 */
export class ExampleWorld {
  readonly operations = documentedOperations();
  factory!: Factory;
  realm!: { id: number; subdomain: string };
  iago!: TestUser;
  desdemona!: TestUser;
  shiva!: TestUser;
  hamlet!: TestUser;
  othello!: TestUser;
  cordelia!: TestUser;
  prospero!: TestUser;
  polonius!: TestUser;
  /** Channels by name. */
  readonly channels = new Map<string, { id: number; name: string }>();

  private constructor(
    readonly system: TestSystem,
    readonly mail: MailSink,
    readonly pushRelay: PushRelayStandIn,
  ) {}

  static async start(): Promise<ExampleWorld> {
    const mail = await MailSink.start();
    const pushRelay = await PushRelayStandIn.start();
    const system = await TestSystem.start({ env: { ...mail.env(), ...pushRelay.env() } });
    const world = new ExampleWorld(system, mail, pushRelay);
    await world.seed();
    return world;
  }

  async stop(): Promise<void> {
    await this.system.stop();
    await Promise.all([this.mail.stop(), this.pushRelay.down()]);
  }

  private async seed(): Promise<void> {
    this.factory = new Factory(this.system.db);
    this.realm = await this.factory.organization({ subdomain: 'zulip', name: 'Zulip Dev' });
    const person = (name: string, role: number, fullName: string) =>
      this.factory.user(this.realm, { email: `${name}@zulip.com`, fullName, role });
    this.desdemona = await person('desdemona', Role.OWNER, 'Desdemona');
    this.iago = await person('iago', Role.ADMINISTRATOR, 'Iago');
    this.shiva = await person('shiva', Role.MODERATOR, 'Shiva');
    this.hamlet = await person('hamlet', Role.MEMBER, 'King Hamlet');
    this.othello = await person('othello', Role.MEMBER, 'Othello, the Moor of Venice');
    this.cordelia = await person('cordelia', Role.MEMBER, 'Cordelia, Lear\'s daughter');
    this.prospero = await person('prospero', Role.MEMBER, 'Prospero from The Tempest');
    this.polonius = await person('polonius', Role.GUEST, 'Polonius');
    const everyone = [this.desdemona, this.iago, this.shiva, this.hamlet, this.othello, this.cordelia, this.prospero];
    for (const name of ['Verona', 'Denmark', 'Scotland']) {
      this.channels.set(name, await this.factory.channel(this.realm, { name, subscribers: [...everyone, this.polonius] }));
    }
    this.channels.set('core team', await this.factory.channel(this.realm, { name: 'core team', inviteOnly: true, subscribers: [this.desdemona, this.iago, this.shiva] }));
    await this.factory.channelMessages(this.hamlet, this.channel('Denmark'), 'castle', 3, (i) => `Something is rotten in the state of Denmark (${i})`);
    await this.factory.channelMessages(this.iago, this.channel('Verona'), 'test', 2, (i) => `Hello, Verona (${i})`);
  }

  channel(name: string): { id: number; name: string } {
    const channel = this.channels.get(name);
    if (!channel) throw new Error(`no channel ${name} in the example organization`);
    return channel;
  }

  /** The operation, as Zulip documents it. */
  operation(operationId: string): DocumentedOperation {
    const operation = this.operations.get(operationId);
    if (!operation) throw new Error(`${operationId} is not an operation of Zulip's OpenAPI description`);
    return operation;
  }

  /** The documented example value of one of the operation's parameters. */
  example<T = unknown>(operationId: string, parameter: string): T {
    const examples = this.operation(operationId).examples;
    if (!(parameter in examples)) throw new Error(`${operationId} documents no example for ${parameter}`);
    return examples[parameter] as T;
  }

  /** Calls the operation through HTTP on the example organization, as its python client does. */
  call<T = Record<string, unknown>>(operationId: string, call: ExampleCall = {}): Promise<ApiResponse<T>> {
    const { method, route } = this.operation(operationId);
    const path = route.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = call.path?.[name];
      if (value === undefined) throw new Error(`${operationId}: no value for {${name}}`);
      return encodeURIComponent(String(value));
    });
    const options = { auth: call.as ?? this.iago, subdomain: this.realm.subdomain, multipart: call.multipart };
    const params = call.params ?? {};
    return method === 'GET' ? this.system.api.get<T>(path, params, options) : this.system.api.request<T>(method, path, params, options);
  }

  /** Sends a message as `as` (a set-up step, not an example's own call); its id. */
  async send(as: Credentials, params: Record<string, FormValue>): Promise<number> {
    const res = await this.system.api.post<{ id: number }>('/messages', params, { auth: as, subdomain: this.realm.subdomain });
    if (res.status !== 200) throw new Error(`sending ${JSON.stringify(params)}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  }

  /** The part of POST /register's initial state these fetch keys give, as `as` (Iago) sees it; the queue is deleted again. */
  async initialState<T>(keys: string[], as: Credentials = this.iago): Promise<T> {
    const state = await this.succeeds<T & { queue_id: string }>('register-queue', { as, params: { fetch_event_types: keys } });
    await this.call('delete-queue', { as, params: { queue_id: state.queue_id } });
    return state;
  }

  /** A text file uploaded as `as` (Iago) through POST /user_uploads, the file its one form part. */
  upload(filename: string, content: string, as: Credentials = this.iago): Promise<ApiResponse<{ uri: string; url: string; filename: string }>> {
    const boundary = `----documented${Math.random().toString(16).slice(2)}`;
    const body = [`--${boundary}`, `Content-Disposition: form-data; name="file"; filename="${filename}"`, 'Content-Type: text/plain', '', content, `--${boundary}--`, ''].join('\r\n');
    return this.system.api.raw('POST', '/user_uploads', body, { auth: as, subdomain: this.realm.subdomain, contentType: `multipart/form-data; boundary=${boundary}` });
  }

  /**
   * Calls and expects success: 200, `result: "success"`, and an answer Zulip's description of
   * the operation allows (unknown keys included). Returns the answer.
   */
  async succeeds<T = Record<string, unknown>>(operationId: string, call: ExampleCall = {}): Promise<T> {
    const res = await this.call<T>(operationId, call);
    this.expectDocumented(operationId, res, 200);
    expect((res.body as { result?: unknown }).result).toBe('success');
    return res.body;
  }

  /** Calls and expects Zulip's documented error answer: the status, the `code`, an answer Zulip's description allows. */
  async fails(operationId: string, call: ExampleCall, status: number, code = 'BAD_REQUEST'): Promise<Record<string, unknown>> {
    const res = await this.call(operationId, call);
    this.expectDocumented(operationId, res, status);
    expect(res.body).toMatchObject({ result: 'error', code });
    return res.body;
  }

  /** Fails the test with the schema errors when the answer is not what Zulip documents for the status. */
  expectDocumented(operationId: string, res: ApiResponse<unknown>, status: number): void {
    const { method, route } = this.operation(operationId);
    if (res.status !== status) throw new Error(`${operationId}: ${res.status} (expected ${status}): ${JSON.stringify(res.body).slice(0, 500)}`);
    const errors = zulipResponseErrors(method, route, status, res.body);
    if (errors && errors.length > 0) {
      throw new Error(`${operationId}: the answer is not what Zulip documents for ${status}:\n${errors.join('\n')}\n${JSON.stringify(res.body).slice(0, 1500)}`);
    }
  }
}

/** One documented example: what it sets up, calls and checks. */
export type Example = (world: ExampleWorld) => Promise<void>;

/** The examples, by operationId, in the order their files register them. */
export const EXAMPLES = new Map<string, Example>();

/** Registers the example of an operation of Zulip's description. */
export function documentedExample(operationId: string, example: Example): void {
  if (EXAMPLES.has(operationId)) throw new Error(`two examples for ${operationId}`);
  EXAMPLES.set(operationId, example);
}
