/**
 * Checks of the deployment files as data (there is no Docker engine or cluster to try them on):
 * docker-compose.yml, k8s/ and the Dockerfile against the code — the services, their entry
 * files, the configuration names of libs/platform/src/config.ts, ports and probe paths.
 *
 * Each check returns a list of problems (empty when all is well), so that deploy.spec.ts can run
 * it on the real files and on deliberately broken copies of them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { configSchema } from '../libs/platform/src/config';
import { nodeOptionsOf } from '../libs/platform/src/node-options';
import { kedaSchemaProblems, scalingProblems } from './scaling-checks';

// Parsed YAML is untyped data; the checks look at it field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Data = any;

export const ROOT = path.resolve(__dirname, '..');

/** The seven services (the same list as libs/contracts/src/services.ts). */
export const SERVICES = ['gateway', 'messaging', 'scheduler', 'presence', 'users-groups', 'uploads', 'push'] as const;
export const INFRASTRUCTURE = ['postgres', 'redis', 'nats', 'migrate'] as const;

export const CONFIG_KEYS: ReadonlySet<string> = new Set(Object.keys(configSchema.shape));
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/health/live', '/health/ready']);

const GATEWAY_PORT_HOST = 9991;

/** GATEWAY_PORT for the gateway, HEALTH_PORT for every command service. */
export const portVariable = (service: string): 'GATEWAY_PORT' | 'HEALTH_PORT' =>
  service === 'gateway' ? 'GATEWAY_PORT' : 'HEALTH_PORT';

export const readText = (relative: string): string => fs.readFileSync(path.join(ROOT, relative), 'utf8');

// ---------------------------------------------------------------------------------------------
// Shared helpers

/**
 * `node [options] dist/apps/<service>/src/main.js` → problems when it is not that service's
 * built entry, or its node options are not the service's own (SERVICE_NODE_OPTIONS).
 */
function entryProblems(where: string, service: string, command: unknown): string[] {
  const words = typeof command === 'string' ? command.trim().split(/\s+/) : Array.isArray(command) ? command.map(String) : [];
  if (words.length === 0) return [`${where}: no command (one image runs every service; the command picks it)`];
  if (words[0] !== 'node') return [`${where}: command must run node, got ${JSON.stringify(words)}`];
  const entry = words[words.length - 1] ?? '';
  const match = /^(?:\.\/|\/app\/)?dist\/apps\/([^/]+)\/src\/main\.js$/.exec(entry);
  if (!match) return [`${where}: command ${JSON.stringify(words)} does not run dist/apps/<service>/src/main.js`];
  const problems: string[] = [];
  if (match[1] !== service) problems.push(`${where}: command runs ${match[1]}, not ${service}`);
  const options = words.slice(1, -1);
  const expected = nodeOptionsOf(service);
  if (JSON.stringify(options) !== JSON.stringify(expected)) {
    problems.push(`${where}: node options ${JSON.stringify(options)}, not the service's own ${JSON.stringify(expected)} (libs/platform/src/node-options.ts)`);
  }
  const source = `apps/${match[1]}/src/main.ts`;
  if (!fs.existsSync(path.join(ROOT, source))) problems.push(`${where}: entry ${entry} has no source file ${source}`);
  return problems;
}

function envNameProblems(where: string, names: Iterable<string>): string[] {
  return [...names].filter((name) => !CONFIG_KEYS.has(name)).map((name) => `${where}: ${name} is not a setting in libs/platform/src/config.ts`);
}

/** The values must also pass the same validation the processes run at start. */
function envValueProblems(where: string, env: Record<string, unknown>): string[] {
  const asStrings = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)]));
  const parsed = configSchema.safeParse(asStrings);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${where}: ${issue.path.join('.')} is invalid: ${issue.message}`);
}

function urlProblems(where: string, urlText: unknown, host: string, port: number): string[] {
  try {
    const url = new URL(String(urlText));
    const actualPort = Number(url.port || { 'postgresql:': 5432, 'redis:': 6379, 'nats:': 4222 }[url.protocol] || 0);
    if (url.hostname !== host || actualPort !== port) {
      return [`${where}: ${String(urlText)} does not point at ${host}:${port}`];
    }
    return [];
  } catch {
    return [`${where}: ${String(urlText)} is not a URL`];
  }
}

const imageRepository = (image: unknown): string => String(image ?? '').replace(/@.*$/, '').replace(/:[^:/]*$/, '');

// ---------------------------------------------------------------------------------------------
// Dockerfile

export interface Instruction {
  keyword: string;
  args: string;
}
export interface Stage {
  index: number;
  name?: string;
  /** The FROM argument with global ARG defaults substituted. */
  from: string;
  instructions: Instruction[];
}
export interface Dockerfile {
  stages: Stage[];
}

export function parseDockerfile(text: string): Dockerfile {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (pending !== '' && line.startsWith('#')) continue; // comment inside a continued instruction
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push(pending + line);
    pending = '';
  }
  if (pending !== '') logical.push(pending);

  const globalArgs: Record<string, string> = {};
  const substitute = (value: string) =>
    value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, a: string, b: string) => globalArgs[a ?? b] ?? '');
  const stages: Stage[] = [];
  for (const line of logical) {
    const space = line.search(/\s/);
    const keyword = (space < 0 ? line : line.slice(0, space)).toUpperCase();
    const args = space < 0 ? '' : line.slice(space + 1).trim();
    if (keyword === 'FROM') {
      const words = args.split(/\s+/).filter((word) => !word.startsWith('--'));
      const asIndex = words.findIndex((word) => word.toUpperCase() === 'AS');
      stages.push({
        index: stages.length,
        from: substitute(words[0] ?? ''),
        name: asIndex >= 0 ? words[asIndex + 1] : undefined,
        instructions: [],
      });
    } else if (stages.length === 0) {
      if (keyword === 'ARG') {
        const [name, ...value] = args.split('=');
        globalArgs[name.trim()] = value.join('=').trim().replace(/^"(.*)"$/, '$1');
      }
    } else {
      stages[stages.length - 1].instructions.push({ keyword, args });
    }
  }
  return { stages };
}

export function stageByName(file: Dockerfile, name: string): Stage | undefined {
  return file.stages.find((stage) => stage.name === name);
}

/** The stage and the stages it is built FROM, base first. */
export function stageChain(file: Dockerfile, stage: Stage): Stage[] {
  const chain: Stage[] = [stage];
  let current = stage;
  for (;;) {
    const parent = file.stages.find((candidate) => candidate.name === current.from && candidate.index < current.index);
    if (!parent) break;
    chain.unshift(parent);
    current = parent;
  }
  return chain;
}

const chainInstructions = (file: Dockerfile, stage: Stage) => stageChain(file, stage).flatMap((s) => s.instructions);

/** The user a stage runs as: the last USER of its chain, root when there is none. */
export function effectiveUser(file: Dockerfile, stage: Stage): string {
  const users = chainInstructions(file, stage).filter((i) => i.keyword === 'USER');
  return users.length ? users[users.length - 1].args.split(':')[0].trim() : 'root';
}

const isRoot = (user: string) => user === '' || user === 'root' || user === '0';

interface Copy {
  from?: string;
  sources: string[];
  dest: string;
}

function parseCopy(args: string): Copy {
  const words = args.trim().startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/);
  const flags = words.filter((word) => word.startsWith('--'));
  const paths = words.filter((word) => !word.startsWith('--'));
  const from = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length);
  return { from, sources: paths.slice(0, -1), dest: paths[paths.length - 1] ?? '' };
}

/** What each COPY of a stage's chain puts in the image, as paths relative to the WORKDIR. */
function copiedItems(file: Dockerfile, stage: Stage): Map<string, Copy> {
  const items = new Map<string, Copy>();
  const clean = (p: string) => p.replace(/^\/app\//, '').replace(/^\.\//, '').replace(/\/+$/, '');
  for (const instruction of chainInstructions(file, stage)) {
    if (instruction.keyword !== 'COPY' && instruction.keyword !== 'ADD') continue;
    const copy = parseCopy(instruction.args);
    const intoDirectory = copy.sources.length > 1 || copy.dest.endsWith('/') || copy.dest === '.';
    for (const source of copy.sources) {
      const item = intoDirectory ? path.posix.join(clean(copy.dest) || '.', path.posix.basename(source)) : clean(copy.dest);
      items.set(clean(item), copy);
    }
  }
  return items;
}

const runs = (file: Dockerfile, stage: Stage) =>
  chainInstructions(file, stage)
    .filter((i) => i.keyword === 'RUN')
    .map((i) => i.args);

/** Does the stage's chain drop the devDependencies (npm prune --omit=dev, npm ci --omit=dev)? */
function omitsDevDependencies(file: Dockerfile, stage: Stage): boolean {
  return runs(file, stage).some((run) => /\bnpm\s+(prune|ci|install)\b/.test(run) && /--omit[= ]dev\b|--production\b/.test(run));
}

export const FINAL_STAGE = (file: Dockerfile): Stage | undefined => file.stages[file.stages.length - 1];

export interface DockerContext {
  packageJson: Data;
  dockerignore: string;
}

export function dockerfileProblems(file: Dockerfile, context: DockerContext): string[] {
  const problems: string[] = [];
  if (file.stages.length < 2) return ['Dockerfile: expected a multi-stage build'];

  for (const stage of file.stages) {
    const parent = file.stages.find((candidate) => candidate.name === stage.from && candidate.index < stage.index);
    if (!parent && stage.from !== 'node:20-bookworm-slim') {
      problems.push(`Dockerfile: stage ${stage.name ?? stage.index} is built from ${stage.from}, not node:20-bookworm-slim`);
    }
    if (stage.instructions.some((i) => i.keyword === 'HEALTHCHECK')) {
      problems.push(`Dockerfile: stage ${stage.name ?? stage.index} has a HEALTHCHECK (compose and k8s define them)`);
    }
  }

  const build = stageByName(file, 'build');
  if (!build) {
    problems.push('Dockerfile: no stage named build');
  } else {
    const buildRuns = runs(file, build);
    const npmCi = buildRuns.findIndex((run) => /\bnpm\s+ci\b/.test(run));
    const buildJs = buildRuns.findIndex((run) => /\bnode\s+(\.\/)?tools\/build\.js\b/.test(run));
    if (npmCi < 0) problems.push('Dockerfile: the build stage does not run npm ci');
    if (buildJs < 0) problems.push('Dockerfile: the build stage does not run node tools/build.js');
    if (npmCi >= 0 && buildJs >= 0 && buildJs < npmCi) problems.push('Dockerfile: tools/build.js runs before npm ci');
    if (npmCi >= 0 && /--omit[= ]dev/.test(buildRuns[npmCi])) {
      problems.push('Dockerfile: the build stage needs devDependencies (swc, prisma)');
    }
  }

  const runtime = FINAL_STAGE(file)!;
  const label = `Dockerfile: the runtime stage (${runtime.name ?? 'last'})`;
  if (isRoot(effectiveUser(file, runtime))) problems.push(`${label} runs as root; it needs a non-root USER`);
  if (!chainInstructions(file, runtime).some((i) => i.keyword === 'WORKDIR')) {
    problems.push(`${label} sets no WORKDIR, yet the commands use paths relative to it`);
  }
  const items = copiedItems(file, runtime);
  for (const needed of ['node_modules', 'dist', 'prisma', 'prisma.config.ts', 'package.json']) {
    if (!items.has(needed)) problems.push(`${label} does not contain ${needed}`);
  }
  const modules = items.get('node_modules');
  if (modules) {
    const source = modules.from ? stageByName(file, modules.from) : undefined;
    if (!source) problems.push(`${label} copies node_modules from no build stage`);
    else if (!omitsDevDependencies(file, source)) {
      problems.push(`${label} copies node_modules from ${source.name}, which keeps the devDependencies (npm prune --omit=dev)`);
    }
  }
  for (const item of items.keys()) {
    if (/^(src|apps|libs|tools)$/.test(item)) problems.push(`${label} contains sources (${item}); it needs only dist/`);
  }
  const cmd = runtime.instructions.filter((i) => i.keyword === 'CMD').pop();
  if (cmd && !cmd.args.trim().startsWith('[')) {
    problems.push(`${label}: CMD in shell form puts a shell at PID 1 and SIGTERM does not reach node`);
  }

  for (const needed of ['node_modules', 'dist', 'libs/db/src/generated']) {
    const lines = context.dockerignore.split(/\r?\n/).map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''));
    if (!lines.includes(needed)) problems.push(`.dockerignore does not exclude ${needed}`);
  }
  return problems;
}

/** Problems with a stage that runs `prisma migrate deploy`: it needs the Prisma CLI. */
export function migrateStageProblems(file: Dockerfile, stageName: string | undefined, packageJson: Data): string[] {
  const stage = stageName ? stageByName(file, stageName) : FINAL_STAGE(file);
  const label = `Dockerfile: the migration stage (${stageName ?? 'last'})`;
  if (!stage) return [`${label} does not exist`];
  const problems: string[] = [];
  if (isRoot(effectiveUser(file, stage))) problems.push(`${label} runs as root; it needs a non-root USER`);
  const items = copiedItems(file, stage);
  for (const needed of ['node_modules', 'prisma', 'prisma.config.ts']) {
    if (!items.has(needed)) problems.push(`${label} does not contain ${needed}`);
  }
  const prismaIsDevOnly = !packageJson?.dependencies?.prisma;
  const modules = items.get('node_modules');
  const source = modules?.from ? stageByName(file, modules.from) : undefined;
  if (prismaIsDevOnly && modules && (!source || omitsDevDependencies(file, source))) {
    problems.push(`${label} has node_modules without devDependencies, so without the Prisma CLI (a devDependency)`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// docker-compose.yml

export function parseCompose(text: string, env: Record<string, string> = {}): Data {
  // Compose resolves YAML merge keys (`<<: *anchor`) and `${VAR:-default}`; so must we (with
  // `env` as the shell's environment: none by default).
  return interpolate(parse(text, { merge: true }), env);
}

/** Compose's variable substitution: `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `$$`. */
export function interpolate(value: Data, env: Record<string, string>): Data {
  if (typeof value === 'string') {
    return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)-([^}]*))?\}/g, (whole, name: string | undefined, colon: string, fallback: string | undefined) => {
      if (whole === '$$') return '$';
      const set = env[name!];
      if (fallback === undefined) return set ?? '';
      if (colon) return set ? set : fallback; // ${VAR:-default}: unset or empty
      return set ?? fallback; // ${VAR-default}: unset only
    });
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]));
  return value;
}

function healthcheckText(test: unknown): string {
  if (Array.isArray(test)) return test.map(String).join(' ');
  return String(test ?? '');
}

/** The URLs a health check or probe asks, as port and path. */
function healthcheckUrls(text: string): { host: string; port: number; path: string }[] {
  return [...text.matchAll(/https?:\/\/[^\s'"`)]+/g)].map((m) => {
    const url = new URL(m[0]);
    return { host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), path: url.pathname };
  });
}

export function composeProblems(compose: Data, dockerfile: Dockerfile, packageJson: Data): string[] {
  const problems: string[] = [];
  // Services of an optional profile (`tracing`) are checked by tracingProfileProblems.
  const services: Record<string, Data> = Object.fromEntries(Object.entries<Data>(compose?.services ?? {}).filter(([, service]) => !service?.profiles));
  const expected = [...SERVICES, ...INFRASTRUCTURE].sort();
  const actual = Object.keys(services).sort();
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    problems.push(`compose: services are [${actual.join(', ')}], expected [${expected.join(', ')}]`);
  }

  // Infrastructure
  const postgres = services.postgres ?? {};
  if (!/^postgres:15\b/.test(String(postgres.image))) problems.push(`compose: postgres image ${postgres.image} is not postgres:15`);
  if (!/^redis:7\b/.test(String(services.redis?.image))) problems.push(`compose: redis image ${services.redis?.image} is not redis:7`);
  if (!/^nats:2\b/.test(String(services.nats?.image))) problems.push(`compose: nats image ${services.nats?.image} is not nats:2`);
  const natsCommand = healthcheckText(services.nats?.command);
  if (!/(^|\s)(-js|--jetstream)(\s|$)/.test(natsCommand)) problems.push('compose: nats runs without JetStream (-js)');
  for (const name of ['postgres', 'redis', 'nats']) {
    if (!services[name]?.healthcheck?.test) problems.push(`compose: ${name} has no healthcheck, yet services wait for it to be healthy`);
  }

  const dependsOnProblems = (name: string, dependsOn: Data, needed: Record<string, string>) => {
    const out: string[] = [];
    for (const [dependency, condition] of Object.entries(needed)) {
      const actualCondition = Array.isArray(dependsOn) ? undefined : dependsOn?.[dependency]?.condition;
      if (actualCondition !== condition) {
        out.push(`compose: ${name} must depend on ${dependency} with condition ${condition} (has ${actualCondition ?? 'none'})`);
      }
    }
    for (const [dependency, spec] of Object.entries<Data>(Array.isArray(dependsOn) ? {} : (dependsOn ?? {}))) {
      if (!services[dependency]) out.push(`compose: ${name} depends on ${dependency}, which is not a service`);
      else if (spec?.condition === 'service_healthy' && !services[dependency].healthcheck?.test) {
        out.push(`compose: ${name} waits for ${dependency} to be healthy, but ${dependency} has no healthcheck`);
      }
    }
    return out;
  };

  // The migration job
  const migrate = services.migrate ?? {};
  const migrateCommand = healthcheckText(migrate.command);
  if (!/\bprisma\s+migrate\s+deploy\b/.test(migrateCommand)) problems.push(`compose: migrate runs "${migrateCommand}", not prisma migrate deploy`);
  if (!migrate.build) problems.push('compose: migrate is not built from the Dockerfile');
  else problems.push(...migrateStageProblems(dockerfile, migrate.build.target, packageJson));
  const migrateEnv: Record<string, unknown> = migrate.environment ?? {};
  problems.push(...envNameProblems('compose: migrate', Object.keys(migrateEnv)));
  if (!migrateEnv.DATABASE_URL) problems.push('compose: migrate has no DATABASE_URL');
  problems.push(...dependsOnProblems('migrate', migrate.depends_on, { postgres: 'service_healthy' }));
  if (migrate.restart && !['no', 'on-failure'].includes(String(migrate.restart))) {
    problems.push(`compose: migrate is one-shot; restart: ${migrate.restart} would run it forever`);
  }

  // The seven services
  const finalStage = FINAL_STAGE(dockerfile);
  const appImages = new Set<string>();
  for (const name of SERVICES) {
    const service = services[name];
    if (!service) continue;
    const where = `compose: ${name}`;
    appImages.add(String(service.image));
    if (!service.build) problems.push(`${where} is not built from the Dockerfile`);
    else if ((service.build.target ?? finalStage?.name) !== finalStage?.name) {
      problems.push(`${where} builds target ${service.build.target}, not the runtime stage ${finalStage?.name}`);
    }
    problems.push(...entryProblems(where, name, service.command));

    if (Array.isArray(service.environment)) {
      problems.push(`${where}: environment must be a mapping`);
      continue;
    }
    const env: Record<string, unknown> = service.environment ?? {};
    problems.push(...envNameProblems(where, Object.keys(env)));
    problems.push(...envValueProblems(where, env));
    const portVar = portVariable(name);
    for (const needed of ['DATABASE_URL', 'REDIS_URL', 'NATS_URL', 'EXTERNAL_URL', portVar]) {
      if (env[needed] === undefined) problems.push(`${where} does not set ${needed}`);
    }
    if (env.DATABASE_URL !== undefined) {
      problems.push(...urlProblems(`${where} DATABASE_URL`, env.DATABASE_URL, 'postgres', 5432));
      const url = new URL(String(env.DATABASE_URL));
      const pgEnv = postgres.environment ?? {};
      if (decodeURIComponent(url.username) !== String(pgEnv.POSTGRES_USER ?? 'postgres') || decodeURIComponent(url.password) !== String(pgEnv.POSTGRES_PASSWORD ?? '') || url.pathname.slice(1) !== String(pgEnv.POSTGRES_DB ?? pgEnv.POSTGRES_USER ?? 'postgres')) {
        problems.push(`${where}: DATABASE_URL does not match the postgres service's user, password and database`);
      }
      if (migrateEnv.DATABASE_URL !== undefined && migrateEnv.DATABASE_URL !== env.DATABASE_URL) {
        problems.push(`${where}: DATABASE_URL differs from the one migrate uses`);
      }
    }
    if (env.REDIS_URL !== undefined) problems.push(...urlProblems(`${where} REDIS_URL`, env.REDIS_URL, 'redis', 6379));
    if (env.NATS_URL !== undefined) problems.push(...urlProblems(`${where} NATS_URL`, env.NATS_URL, 'nats', 4222));

    const port = Number(env[portVar] ?? configSchema.shape[portVar].parse(undefined));
    const check = healthcheckText(service.healthcheck?.test);
    if (!check) problems.push(`${where} has no healthcheck`);
    else {
      if (/\b(curl|wget)\b/.test(check)) problems.push(`${where}: the healthcheck uses curl/wget, which node:20-bookworm-slim lacks`);
      const urls = healthcheckUrls(check);
      if (urls.length !== 1) problems.push(`${where}: the healthcheck should ask exactly one URL, found ${urls.length}`);
      for (const url of urls) {
        if (url.port !== port) problems.push(`${where}: the healthcheck asks port ${url.port}, but ${portVar} is ${port}`);
        if (!PROBE_PATHS.has(url.path)) problems.push(`${where}: the healthcheck asks ${url.path}, not /health/live or /health/ready`);
        if (url.path !== '/health/ready') problems.push(`${where}: the healthcheck should ask /health/ready`);
        if (!['127.0.0.1', 'localhost'].includes(url.host)) problems.push(`${where}: the healthcheck asks ${url.host}, not the container itself`);
      }
    }
    problems.push(
      ...dependsOnProblems(name, service.depends_on, {
        migrate: 'service_completed_successfully',
        postgres: 'service_healthy',
        redis: 'service_healthy',
        nats: 'service_healthy',
      }),
    );

    const ports: string[] = (service.ports ?? []).map((p: Data) => (typeof p === 'object' ? `${p.published}:${p.target}` : String(p)));
    if (name === 'gateway') {
      const published = ports.map((p) => p.split(':').slice(-2).map(Number));
      if (!published.some(([host, container]) => host === GATEWAY_PORT_HOST && container === port)) {
        problems.push(`${where}: must publish ${GATEWAY_PORT_HOST} to GATEWAY_PORT ${port}, has [${ports.join(', ')}]`);
      }
    } else if (ports.length > 0) {
      problems.push(`${where}: only the gateway is published; ${name} publishes [${ports.join(', ')}]`);
    }
  }
  if (appImages.size !== 1) problems.push(`compose: the services should share one image, found [${[...appImages].join(', ')}]`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// k8s/

export interface K8sObject {
  file: string;
  obj: Data;
}

export interface K8sFiles {
  /** File name → text, every file in k8s/ except kustomization.yaml. */
  manifests: Record<string, string>;
  kustomization: string;
}

export function readK8s(): K8sFiles {
  const dir = path.join(ROOT, 'k8s');
  const manifests: Record<string, string> = {};
  let kustomization = '';
  for (const name of fs.readdirSync(dir).sort()) {
    // k8s/infra/ (the engines underneath) is its own kustomization: see infraProblems.
    if (fs.statSync(path.join(dir, name)).isDirectory()) continue;
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    if (name === 'kustomization.yaml' || name === 'kustomization.yml') kustomization = text;
    else manifests[name] = text;
  }
  return { manifests, kustomization };
}

const MODELS: Record<string, { new (data: Data): { validate(): void } }> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

/** Kinds validated elsewhere (KEDA's models are ES modules: see kedaSchemaProblems). */
const KEDA_KEY = 'keda.sh/v1alpha1/ScaledObject';

export function parseK8s(files: K8sFiles): { objects: K8sObject[]; problems: string[] } {
  const objects: K8sObject[] = [];
  const problems: string[] = [];
  for (const [file, text] of Object.entries(files.manifests)) {
    if (!/\.ya?ml$/.test(file)) {
      problems.push(`k8s/${file}: not a YAML file`);
      continue;
    }
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length) {
        problems.push(`k8s/${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
        continue;
      }
      const obj = doc.toJS();
      if (obj !== null && obj !== undefined) objects.push({ file, obj });
    }
  }
  return { objects, problems };
}

/** Every object against the Kubernetes OpenAPI schema of its kind. */
export function schemaProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const scaledObjects = objects.filter(({ obj }) => `${obj?.apiVersion}/${obj?.kind}` === KEDA_KEY);
  problems.push(...kedaSchemaProblems(scaledObjects));
  for (const { file, obj } of objects) {
    const key = `${obj?.apiVersion}/${obj?.kind}`;
    if (key === KEDA_KEY) {
      if (!obj.metadata?.name) problems.push(`k8s/${file}: ${obj.kind} has no metadata.name`);
      continue;
    }
    const Model = MODELS[key];
    if (!Model) {
      problems.push(`k8s/${file}: ${key} is not a kind these checks know`);
      continue;
    }
    try {
      new Model(obj).validate();
    } catch (error) {
      problems.push(`k8s/${file}: ${obj.kind} ${obj.metadata?.name}: ${(error as Error).message}`);
    }
    if (!obj.metadata?.name) problems.push(`k8s/${file}: ${obj.kind} has no metadata.name`);
  }
  return problems;
}

/** A container port given by number or by name → its number. */
function resolvePort(port: unknown, container: Data): number | undefined {
  if (typeof port === 'number') return port;
  const named = (container?.ports ?? []).find((p: Data) => p.name === port);
  return named ? Number(named.containerPort) : Number.isFinite(Number(port)) ? Number(port) : undefined;
}

function cpuMillis(value: unknown): number {
  const text = String(value ?? '');
  return text.endsWith('m') ? Number(text.slice(0, -1)) : Number(text) * 1000;
}

export function k8sProblems(objects: K8sObject[], kustomization: Data, fileNames: string[]): string[] {
  const problems: string[] = [];
  const ofKind = (kind: string) => objects.filter(({ obj }) => obj?.kind === kind);
  const configMaps = ofKind('ConfigMap');
  const secrets = ofKind('Secret');
  const deployments = ofKind('Deployment');

  // ConfigMap and Secret hold only configuration names.
  const configData: Record<string, Data> = {};
  for (const { file, obj } of configMaps) {
    problems.push(...envNameProblems(`k8s/${file} ConfigMap ${obj.metadata?.name}`, Object.keys(obj.data ?? {})));
    Object.assign(configData, obj.data ?? {});
  }
  const secretData: Record<string, Data> = {};
  for (const { file, obj } of secrets) {
    const keys = [...Object.keys(obj.stringData ?? {}), ...Object.keys(obj.data ?? {})];
    problems.push(...envNameProblems(`k8s/${file} Secret ${obj.metadata?.name}`, keys));
    Object.assign(secretData, obj.stringData ?? {});
    for (const [key, value] of Object.entries<string>(obj.data ?? {})) secretData[key] = Buffer.from(value, 'base64').toString('utf8');
  }
  if (configMaps.length !== 1) problems.push(`k8s: expected one ConfigMap, found ${configMaps.length}`);
  if (secrets.length !== 1) problems.push(`k8s: expected one Secret, found ${secrets.length}`);
  if (!('DATABASE_URL' in secretData)) problems.push('k8s: the Secret holds no DATABASE_URL');
  if ('DATABASE_URL' in configData) problems.push('k8s: DATABASE_URL (with its password) belongs in the Secret, not the ConfigMap');
  for (const needed of ['NATS_URL', 'EXTERNAL_URL', 'LOG_LEVEL']) {
    if (!(needed in configData)) problems.push(`k8s: the ConfigMap does not set ${needed}`);
  }
  if (!('REDIS_URL' in configData) && !('REDIS_CLUSTER_NODES' in configData)) problems.push('k8s: the ConfigMap sets neither REDIS_URL nor REDIS_CLUSTER_NODES');
  const configMapName = configMaps[0]?.obj.metadata?.name;
  const secretName = secrets[0]?.obj.metadata?.name;

  // One Deployment and one Service per service, in k8s/<service>.yaml.
  const runtimeImages = new Set<string>();
  for (const service of SERVICES) {
    const file = `${service}.yaml`;
    const here = objects.filter((o) => o.file === file);
    const kinds = here.map((o) => `${o.obj.kind}/${o.obj.metadata?.name}`).sort();
    if (JSON.stringify(kinds) !== JSON.stringify([`Deployment/${service}`, `Service/${service}`])) {
      problems.push(`k8s/${file}: expected Deployment/${service} and Service/${service}, found [${kinds.join(', ')}]`);
    }
  }
  for (const { file, obj } of deployments) {
    const name: string = obj.metadata?.name;
    const where = `k8s/${file} Deployment ${name}`;
    if (!(SERVICES as readonly string[]).includes(name)) {
      problems.push(`${where}: not one of the seven services`);
      continue;
    }
    const template = obj.spec?.template ?? {};
    const podLabels = template.metadata?.labels ?? {};
    if (obj.metadata?.labels?.['app.kubernetes.io/name'] !== name) problems.push(`${where}: metadata.labels lacks app.kubernetes.io/name: ${name}`);
    if (podLabels['app.kubernetes.io/name'] !== name) problems.push(`${where}: pod labels lack app.kubernetes.io/name: ${name}`);
    if (obj.spec?.selector?.matchLabels?.['app.kubernetes.io/name'] !== name) problems.push(`${where}: selector does not match app.kubernetes.io/name: ${name}`);

    const pod = template.spec ?? {};
    const grace = pod.terminationGracePeriodSeconds;
    if (typeof grace !== 'number' || grace < 15 || grace > 300) {
      problems.push(`${where}: terminationGracePeriodSeconds ${grace} (want 15–300 s for SIGTERM to drain NATS and close pools)`);
    }
    // Kubernetes injects <SERVICE>_PORT=tcp://… for every Service; the one for the gateway
    // Service is GATEWAY_PORT, which the config validation rejects.
    if (pod.enableServiceLinks !== false) problems.push(`${where}: enableServiceLinks must be false (a Service named gateway injects GATEWAY_PORT=tcp://…)`);

    const containers: Data[] = pod.containers ?? [];
    if (containers.length !== 1) problems.push(`${where}: expected one container, found ${containers.length}`);
    const container = containers[0] ?? {};
    runtimeImages.add(imageRepository(container.image));
    problems.push(...entryProblems(where, name, container.command ?? container.args));

    const envFrom: Data[] = container.envFrom ?? [];
    if (!envFrom.some((e) => e.configMapRef?.name && e.configMapRef.name === configMapName)) problems.push(`${where}: no envFrom of ConfigMap ${configMapName}`);
    if (!envFrom.some((e) => e.secretRef?.name && e.secretRef.name === secretName)) problems.push(`${where}: no envFrom of Secret ${secretName}`);
    const env: Data[] = container.env ?? [];
    problems.push(...envNameProblems(where, env.map((e) => e.name)));
    const ownEnv = Object.fromEntries(env.filter((e) => 'value' in e).map((e) => [e.name, e.value]));
    problems.push(...envValueProblems(where, { ...configData, ...secretData, ...ownEnv }));

    const portVar = portVariable(name);
    const portValue = ownEnv[portVar];
    if (portValue === undefined) {
      problems.push(`${where}: does not set ${portVar}`);
      continue;
    }
    const port = Number(portValue);
    if (!(container.ports ?? []).some((p: Data) => p.containerPort === port)) problems.push(`${where}: no containerPort ${port} (${portVar})`);
    const probes: [string, string | undefined][] = [
      ['livenessProbe', '/health/live'],
      ['readinessProbe', '/health/ready'],
      ['startupProbe', undefined],
    ];
    for (const [probeName, wantedPath] of probes) {
      const probe = container[probeName];
      if (!probe) {
        if (wantedPath) problems.push(`${where}: no ${probeName}`);
        continue;
      }
      const get = probe.httpGet;
      if (!get) {
        problems.push(`${where}: ${probeName} is not an httpGet`);
        continue;
      }
      const probePort = resolvePort(get.port, container);
      if (probePort !== port) problems.push(`${where}: ${probeName} asks port ${get.port}, but ${portVar} is ${port}`);
      if (!PROBE_PATHS.has(get.path)) problems.push(`${where}: ${probeName} asks ${get.path}, not /health/live or /health/ready`);
      else if (wantedPath && get.path !== wantedPath) problems.push(`${where}: ${probeName} asks ${get.path}, want ${wantedPath}`);
    }
    const promPort = template.metadata?.annotations?.['prometheus.io/port'];
    if (promPort !== undefined && Number(promPort) !== port) problems.push(`${where}: prometheus.io/port ${promPort} is not ${portVar} ${port}`);

    const resources = container.resources ?? {};
    for (const kind of ['requests', 'limits']) {
      for (const resource of ['cpu', 'memory']) {
        if (!resources[kind]?.[resource]) problems.push(`${where}: no resources.${kind}.${resource}`);
      }
    }

    // The Service in front of it.
    const service = objects.find((o) => o.obj.kind === 'Service' && o.obj.metadata?.name === name)?.obj;
    if (!service) continue;
    const selector = service.spec?.selector ?? {};
    if (Object.keys(selector).length === 0 || !Object.entries(selector).every(([k, v]) => podLabels[k] === v)) {
      problems.push(`k8s/${file} Service ${name}: selector ${JSON.stringify(selector)} does not select the Deployment's pods`);
    }
    const servicePorts: Data[] = service.spec?.ports ?? [];
    const [wantName, wantPort] = name === 'gateway' ? ['http', 80] : ['health', 9100];
    const servicePort = servicePorts.find((p) => p.name === wantName);
    if (!servicePort) problems.push(`k8s/${file} Service ${name}: no port named ${wantName}`);
    else {
      if (servicePort.port !== wantPort) problems.push(`k8s/${file} Service ${name}: port ${wantName} is ${servicePort.port}, want ${wantPort}`);
      const target = resolvePort(servicePort.targetPort ?? servicePort.port, container);
      if (target !== port) problems.push(`k8s/${file} Service ${name}: targetPort ${servicePort.targetPort} is not ${portVar} ${port}`);
    }
  }
  if (runtimeImages.size !== 1) problems.push(`k8s: the Deployments should share one image, found [${[...runtimeImages].join(', ')}]`);

  // Autoscaling
  const hpas = ofKind('HorizontalPodAutoscaler');
  for (const { file, obj } of hpas) {
    const where = `k8s/${file} HorizontalPodAutoscaler ${obj.metadata?.name}`;
    if (obj.apiVersion !== 'autoscaling/v2') problems.push(`${where}: apiVersion ${obj.apiVersion}, want autoscaling/v2`);
    const ref = obj.spec?.scaleTargetRef ?? {};
    const deployment = deployments.find((d) => d.obj.metadata?.name === ref.name)?.obj;
    if (ref.kind !== 'Deployment' || ref.apiVersion !== 'apps/v1' || !deployment) {
      problems.push(`${where}: scaleTargetRef ${ref.apiVersion}/${ref.kind}/${ref.name} is not a Deployment in k8s/`);
      continue;
    }
    if (deployment.spec?.replicas !== undefined) problems.push(`${where}: Deployment ${ref.name} sets spec.replicas, which fights the autoscaler on every apply`);
    const scalesOnCpu = (obj.spec?.metrics ?? []).some((m: Data) => m.resource?.name === 'cpu');
    const cpuRequest = deployment.spec?.template?.spec?.containers?.[0]?.resources?.requests?.cpu;
    if (scalesOnCpu && !(cpuMillis(cpuRequest) > 0)) problems.push(`${where}: scales on CPU, but Deployment ${ref.name} requests no CPU`);
    if (!(obj.spec?.minReplicas >= 1 && obj.spec?.maxReplicas >= obj.spec?.minReplicas)) problems.push(`${where}: bad min/max replicas`);
  }
  // One autoscaler per Deployment (HPA or KEDA), PDBs, topology spread, the gateway's drain.
  problems.push(...scalingProblems(objects, configData));

  // The migration Job
  const jobs = ofKind('Job');
  if (jobs.length !== 1) problems.push(`k8s: expected one migration Job, found ${jobs.length}`);
  for (const { file, obj } of jobs) {
    const where = `k8s/${file} Job ${obj.metadata?.name}`;
    const container = obj.spec?.template?.spec?.containers?.[0] ?? {};
    const command = healthcheckText([...(container.command ?? []), ...(container.args ?? [])]);
    if (!/\bprisma\s+migrate\s+deploy\b/.test(command)) problems.push(`${where}: runs "${command}", not prisma migrate deploy`);
    const envFrom: Data[] = container.envFrom ?? [];
    const hasDatabaseUrl = envFrom.some((e) => e.secretRef?.name === secretName) || (container.env ?? []).some((e: Data) => e.name === 'DATABASE_URL');
    if (!hasDatabaseUrl) problems.push(`${where}: gets no DATABASE_URL (envFrom the Secret)`);
    problems.push(...envNameProblems(where, (container.env ?? []).map((e: Data) => e.name)));
    if (imageRepository(container.image) === '') problems.push(`${where}: no image`);
    const securityContext = obj.spec?.template?.spec?.securityContext ?? {};
    if (securityContext.runAsNonRoot !== true) problems.push(`${where}: should set runAsNonRoot`);
  }

  // Every pod runs as non-root (the image's USER is numeric, so the kubelet can verify it).
  for (const { file, obj } of deployments) {
    if (obj.spec?.template?.spec?.securityContext?.runAsNonRoot !== true) problems.push(`k8s/${file} Deployment ${obj.metadata?.name}: should set runAsNonRoot`);
  }

  // kustomization.yaml lists every file, and only those.
  const resources: string[] = (kustomization?.resources ?? []).map(String);
  const listed = [...resources].sort();
  const present = [...fileNames].sort();
  if (JSON.stringify(listed) !== JSON.stringify(present)) {
    problems.push(`k8s/kustomization.yaml: resources [${listed.join(', ')}] differ from the files in k8s/ [${present.join(', ')}]`);
  }
  if (new Set(resources).size !== resources.length) problems.push('k8s/kustomization.yaml: a resource is listed twice');
  const kustomizedImages = new Set((kustomization?.images ?? []).map((i: Data) => String(i.name)));
  const usedImages = [...runtimeImages, ...jobs.map((j) => imageRepository(j.obj.spec?.template?.spec?.containers?.[0]?.image))];
  if (kustomization?.images) {
    for (const image of usedImages) {
      if (!kustomizedImages.has(image)) problems.push(`k8s/kustomization.yaml: images does not set the tag of ${image}`);
    }
  }
  return problems;
}

/** The image names compose and k8s use must be the same two images. */
export function imageConsistencyProblems(compose: Data, objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const composeRuntime = imageRepository(compose?.services?.gateway?.image);
  const composeMigrate = imageRepository(compose?.services?.migrate?.image);
  for (const { file, obj } of objects) {
    const image = obj.spec?.template?.spec?.containers?.[0]?.image;
    if (obj.kind === 'Deployment' && imageRepository(image) !== composeRuntime) {
      problems.push(`k8s/${file}: image ${image} is not compose's ${composeRuntime}`);
    }
    if (obj.kind === 'Job' && imageRepository(image) !== composeMigrate) {
      problems.push(`k8s/${file}: image ${image} is not compose's ${composeMigrate}`);
    }
  }
  return problems;
}

// k8s/infra/

/** The engines' manifests (k8s/infra/*.yaml) as objects, with their kustomization. */
export function readInfra(): { objects: K8sObject[]; kustomization: Data; problems: string[] } {
  const dir = path.join(ROOT, 'k8s', 'infra');
  const manifests: Record<string, string> = {};
  let kustomization = '';
  for (const name of fs.readdirSync(dir).sort()) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    if (name === 'kustomization.yaml') kustomization = text;
    else manifests[name] = text;
  }
  const parsed = parseK8s({ manifests, kustomization });
  return { ...parsed, kustomization: parse(kustomization) as Data };
}

/**
 * What the services' configuration counts on in the engines' manifests: a NATS cluster of three
 * JetStream nodes routed to each other, which the ConfigMap's NATS_URL lists and whose stream
 * replicas it asks for; PgBouncer in session pooling on the port the Secret's DATABASE_URL names,
 * capping the server connections at the connection budget; a Redis Cluster (redisClusterProblems).
 */
export function infraProblems(infra: { objects: K8sObject[]; kustomization: Data }, appObjects: K8sObject[]): string[] {
  const problems: string[] = [];
  const files = [...new Set(infra.objects.map((o) => o.file))];
  const listed = (infra.kustomization.resources as string[] | undefined) ?? [];
  for (const file of files) if (!listed.includes(file)) problems.push(`k8s/infra/kustomization.yaml does not list ${file}`);
  const nats = infra.objects.find((o) => o.obj.kind === 'StatefulSet' && o.obj.metadata?.name === 'nats')?.obj;
  const natsConf = String(infra.objects.find((o) => o.obj.kind === 'ConfigMap' && o.obj.metadata?.name === 'nats-config')?.obj.data?.['nats.conf'] ?? '');
  if (!nats) problems.push('k8s/infra: no StatefulSet nats');
  const replicas = Number(nats?.spec?.replicas ?? 0);
  if (replicas !== 3) problems.push(`k8s/infra: NATS runs ${replicas} nodes, not 3`);
  if (!/jetstream\s*\{/.test(natsConf)) problems.push('k8s/infra: nats.conf does not enable JetStream');
  const routes = [...natsConf.matchAll(/nats:\/\/(nats-\d+)\.nats-cluster:6222/g)].map((m) => m[1]);
  const pods = Array.from({ length: replicas }, (_, i) => `nats-${i}`);
  if (routes.sort().join() !== pods.join()) problems.push(`k8s/infra: nats.conf routes to ${routes.join(', ') || 'nothing'}, not to ${pods.join(', ')}`);
  const config = (appObjects.find((o) => o.obj.kind === 'ConfigMap')?.obj.data ?? {}) as Record<string, string>;
  const servers = (config.NATS_URL ?? '').split(',').map((s) => s.trim());
  for (const pod of pods) if (!servers.includes(`nats://${pod}.nats-cluster:4222`)) problems.push(`k8s: NATS_URL does not list ${pod}`);
  if (Number(config.NATS_STREAM_REPLICAS) !== replicas) problems.push(`k8s: NATS_STREAM_REPLICAS is ${config.NATS_STREAM_REPLICAS}, not the cluster's ${replicas}`);
  const ini = String(infra.objects.find((o) => o.obj.kind === 'ConfigMap' && o.obj.metadata?.name === 'pgbouncer-config')?.obj.data?.['pgbouncer.ini'] ?? '');
  const setting = (name: string) => new RegExp(`^\\s*${name}\\s*=\\s*(\\S+)`, 'm').exec(ini)?.[1];
  if (setting('pool_mode') !== 'session') problems.push(`k8s/infra: PgBouncer pool_mode is ${setting('pool_mode')}, not session (the hot paths' named prepared statements and LISTEN need a session)`);
  const secret = (appObjects.find((o) => o.obj.kind === 'Secret')?.obj.stringData ?? {}) as Record<string, string>;
  if (!/@pgbouncer:6432\//.test(secret.DATABASE_URL ?? '')) problems.push('k8s: the Secret\'s DATABASE_URL does not go through pgbouncer:6432');
  const bouncers = Number(infra.objects.find((o) => o.obj.kind === 'Deployment' && o.obj.metadata?.name === 'pgbouncer')?.obj.spec?.replicas ?? 0);
  const serverConnections = bouncers * (Number(setting('default_pool_size')) + Number(setting('reserve_pool_size')));
  if (!(serverConnections > 0 && serverConnections <= 95)) problems.push(`k8s/infra: PgBouncer lets Postgres see ${serverConnections} connections, past the budget of 95 (max_connections 100 less 5)`);
  problems.push(...redisClusterProblems(infra.objects, config));
  return problems;
}

/** Three masters with a replica each. */
export const REDIS_CLUSTER_SIZE = 6;

/** A container's command and args as one text, with every script it runs from a mounted ConfigMap appended. */
function commandWithScripts(podSpec: Data, container: Data, objects: K8sObject[]): string {
  const words: string[] = [...(container?.command ?? []), ...(container?.args ?? [])].map(String);
  const scripts = words.flatMap((word) => {
    const mount = (container?.volumeMounts ?? []).find((m: Data) => word.startsWith(`${m.mountPath}/`));
    const volume = (podSpec?.volumes ?? []).find((v: Data) => v.name === mount?.name);
    const configMap = objects.find((o) => o.obj.kind === 'ConfigMap' && o.obj.metadata?.name === volume?.configMap?.name)?.obj;
    const text = configMap?.data?.[word.slice(String(mount?.mountPath).length + 1)];
    return text === undefined ? [] : [String(text)];
  });
  return [words.join(' '), ...scripts].join('\n');
}

const envValue = (container: Data, name: string): string | undefined => (container?.env ?? []).find((e: Data) => e.name === name)?.value;
const nodeList = (text: string | undefined, separator: RegExp): string[] => (text ?? '').split(separator).map((node) => node.trim()).filter(Boolean).sort();

/**
 * The Redis Cluster of k8s/infra/redis-cluster.yaml: six pods of a StatefulSet with cluster mode,
 * node identity on their volume and their stable names announced; a headless Service for those
 * names; a disruption budget of one; a create Job whose node list, like the pods' own and the
 * services' REDIS_CLUSTER_NODES, is exactly the StatefulSet's pods under that Service.
 */
export function redisClusterProblems(objects: K8sObject[], config: Record<string, string>): string[] {
  const problems: string[] = [];
  const where = 'k8s/infra/redis-cluster.yaml';
  const redis = objects.find((o) => o.obj.kind === 'StatefulSet' && o.obj.metadata?.name === 'redis')?.obj;
  if (!redis) return [`${where}: no StatefulSet redis`];
  const replicas = Number(redis.spec?.replicas ?? 0);
  if (replicas !== REDIS_CLUSTER_SIZE) problems.push(`${where}: the Redis Cluster runs ${replicas} nodes, not ${REDIS_CLUSTER_SIZE} (three masters with a replica each)`);
  const pod = redis.spec?.template?.spec ?? {};
  const podLabels: Record<string, string> = redis.spec?.template?.metadata?.labels ?? {};
  const selectsPods = (selector: Data) =>
    selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => podLabels[k] === v);
  const container = pod.containers?.[0] ?? {};
  if (!/^redis:7\b/.test(String(container.image))) problems.push(`${where}: image ${container.image} is not redis:7`);

  // The names: <statefulset>-<n>.<headless service>.
  const serviceName = redis.spec?.serviceName;
  const service = objects.find((o) => o.obj.kind === 'Service' && o.obj.metadata?.name === serviceName)?.obj;
  if (!service || service.spec?.clusterIP !== 'None' || !selectsPods(service.spec?.selector)) {
    problems.push(`${where}: StatefulSet redis's serviceName ${serviceName} is no headless Service selecting its pods`);
  } else {
    const ports = (service.spec?.ports ?? []).map((p: Data) => Number(p.port)).sort((a: number, b: number) => a - b);
    if (JSON.stringify(ports) !== JSON.stringify([6379, 16379])) problems.push(`${where}: Service ${serviceName} has ports [${ports.join(', ')}], not the client's 6379 and the cluster bus's 16379`);
    if (service.spec?.publishNotReadyAddresses !== true) problems.push(`${where}: Service ${serviceName} must publish not-ready addresses (the nodes meet while they start)`);
  }
  const nodes = Array.from({ length: replicas }, (_, i) => `${redis.metadata.name}-${i}.${serviceName}:6379`).sort();

  // Cluster mode, its identity on the volume, the names announced.
  const confMap = (pod.volumes ?? []).find((v: Data) => v.configMap && (container.volumeMounts ?? []).some((m: Data) => m.name === v.name));
  const conf = String(objects.find((o) => o.obj.kind === 'ConfigMap' && o.obj.metadata?.name === confMap?.configMap?.name)?.obj.data?.['redis.conf'] ?? '');
  const setting = (name: string) => new RegExp(`^\\s*${name}\\s+(\\S+)`, 'm').exec(conf)?.[1];
  if (setting('cluster-enabled') !== 'yes') problems.push(`${where}: redis.conf does not set cluster-enabled yes`);
  const claims = (redis.spec?.volumeClaimTemplates ?? []).map((c: Data) => c.metadata?.name);
  const dataMount = (container.volumeMounts ?? []).find((m: Data) => claims.includes(m.name))?.mountPath;
  const nodesConf = setting('cluster-config-file') ?? '';
  const nodesConfPath = nodesConf.startsWith('/') ? nodesConf : `${setting('dir') ?? ''}/${nodesConf}`;
  if (!dataMount || !nodesConfPath.startsWith(`${dataMount}/`)) problems.push(`${where}: cluster-config-file ${nodesConf || '(unset)'} is not on the pod's volume, so a restarted pod would be a new node`);
  if (!setting('cluster-node-timeout')) problems.push(`${where}: redis.conf sets no cluster-node-timeout`);
  if (setting('cluster-preferred-endpoint-type') !== 'hostname') problems.push(`${where}: redis.conf does not set cluster-preferred-endpoint-type hostname (pod IPs change on restart)`);
  if (setting('maxmemory-policy') !== 'noeviction') problems.push(`${where}: maxmemory-policy ${setting('maxmemory-policy')}, but BullMQ needs noeviction`);
  const args: string[] = (container.args ?? []).map(String);
  const announced = args[args.indexOf('--cluster-announce-hostname') + 1] ?? '';
  if (!args.includes('--cluster-announce-hostname') || !announced.startsWith(`$(POD_NAME).${serviceName}`)) {
    problems.push(`${where}: the nodes do not announce their stable names ($(POD_NAME).${serviceName}…) with --cluster-announce-hostname`);
  }
  for (const probe of ['readinessProbe', 'livenessProbe']) {
    if (!/redis-cli ping/.test((container[probe]?.exec?.command ?? []).join(' '))) problems.push(`${where}: the ${probe} does not ask redis-cli ping`);
  }
  if (!(container.resources?.requests?.memory && container.resources?.limits?.memory)) problems.push(`${where}: the Redis container needs memory requests and limits`);
  const podNodes = nodeList(envValue(container, 'REDIS_NODES'), /\s+/);
  if (podNodes.join() !== nodes.join()) problems.push(`${where}: the pods' REDIS_NODES [${podNodes.join(', ')}] are not the StatefulSet's [${nodes.join(', ')}]`);

  // Disruptions and placement: one node at a time, spread over the machines.
  const budgets = objects.filter((o) => o.obj.kind === 'PodDisruptionBudget' && selectsPods(o.obj.spec?.selector?.matchLabels));
  if (budgets.length !== 1 || Number(budgets[0].obj.spec?.maxUnavailable) !== 1) problems.push(`${where}: want one PodDisruptionBudget with maxUnavailable 1 selecting the Redis pods, found ${budgets.length}`);
  const spread = (pod.topologySpreadConstraints ?? []).find((c: Data) => c.topologyKey === 'kubernetes.io/hostname');
  if (!spread || !selectsPods(spread.labelSelector?.matchLabels)) problems.push(`${where}: no topologySpreadConstraint over kubernetes.io/hostname selecting the Redis pods`);

  // The create Job: once every node answers, `--cluster create` over exactly those nodes.
  const jobs = objects.filter((o) => o.obj.kind === 'Job');
  const create = jobs.find((o) => /--cluster create/.test(commandWithScripts(o.obj.spec?.template?.spec, o.obj.spec?.template?.spec?.containers?.[0], objects)))?.obj;
  if (!create) {
    problems.push(`${where}: no Job runs redis-cli --cluster create`);
  } else {
    const jobContainer = create.spec.template.spec.containers[0];
    const script = commandWithScripts(create.spec.template.spec, jobContainer, objects);
    if (!/--cluster create \$REDIS_NODES\b/.test(script)) problems.push(`${where}: Job ${create.metadata?.name} does not create the cluster from $REDIS_NODES`);
    if (!/--cluster-replicas 1\b/.test(script)) problems.push(`${where}: Job ${create.metadata?.name} does not give each master one replica (--cluster-replicas 1)`);
    if (!/cluster_slots_assigned:0/.test(script)) problems.push(`${where}: Job ${create.metadata?.name} does not first look for an existing cluster, so it is not safe to run again`);
    const jobNodes = nodeList(envValue(jobContainer, 'REDIS_NODES'), /\s+/);
    if (jobNodes.join() !== nodes.join()) problems.push(`${where}: the create Job's nodes [${jobNodes.join(', ')}] are not the StatefulSet's [${nodes.join(', ')}]`);
  }

  // The services' seed list: exactly those pods.
  const seeds = nodeList(config.REDIS_CLUSTER_NODES, /,/);
  if (seeds.join() !== nodes.join()) problems.push(`k8s: REDIS_CLUSTER_NODES [${seeds.join(', ')}] does not name exactly the Redis pods [${nodes.join(', ')}]`);
  return problems;
}
