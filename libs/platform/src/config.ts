import { z } from 'zod';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/**
 * Every setting of every process, from the environment, validated before Nest starts.
 * The README's configuration table lists the same names; compose and k8s set them.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/teamchat'),
  /**
   * The connection budget (docs/architecture.md, "Capacity"): each process that owns tables opens
   * at most DATABASE_POOL_SIZE connections for its hot paths (pg), DATABASE_COLD_POOL_SIZE for
   * Prisma's cold paths, and one that LISTENs for the outbox relay. Replicas × their sum, over
   * every service, must stay under what Postgres (or PgBouncer in front of it) accepts.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(10),
  /**
   * A read replica (streaming replication) for reads that may be a moment behind: searches
   * (and their highlights). Empty: everything reads the primary. Never used where a client reads
   * its own write. It gets a pool of DATABASE_POOL_SIZE too.
   */
  DATABASE_REPLICA_URL: z.union([z.literal(''), z.string().url()]).default(''),
  DATABASE_COLD_POOL_SIZE: z.coerce.number().int().positive().default(4),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /**
   * A Redis Cluster's seed nodes, `host:port` separated by commas: when set, every Redis client
   * (caches, queues, BullMQ, pub/sub) is a cluster client and REDIS_URL only lends its user and
   * password. Empty: the one node at REDIS_URL.
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^$|^[^\s,:]+:\d+(,[^\s,:]+:\d+)*$/, 'must be empty or host:port pairs separated by commas')
    .default(''),
  /** One NATS server, or a cluster's servers separated by commas (each connection fails over between them). */
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** How many NATS servers keep a copy of the event stream (and so of its consumers): 3 on a three-node JetStream cluster. */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  NATS_SUBJECT_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\.)?$/, 'must be empty or a token followed by a dot')
    .default(''),
  NATS_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(10000),
  /**
   * The most commands one process runs at once; beyond it a command is refused at once (503,
   * Retry-After), not queued until every caller times out together.
   */
  COMMAND_MAX_IN_FLIGHT: z.coerce.number().int().positive().default(512),
  REDIS_KEY_PREFIX: z.string().default('teamchat:'),
  /** The public URL of the root domain; organizations live at `<subdomain>.<host>`. */
  EXTERNAL_URL: z.string().url().default('http://localhost:9991'),
  /** The organization served when the host names none (single-organization installs). */
  DEFAULT_ORGANIZATION: z.string().default(''),
  GATEWAY_PORT: port(9991),
  /** Each command service serves /health/live, /health/ready and /metrics here. */
  HEALTH_PORT: port(9100),
  AUTH_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  /** How long messaging keeps a channel's send context (0: not at all); events that change one empty the cache at once. */
  SEND_CONTEXT_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
  RATE_LIMIT_ENABLED: bool(true),
  RATE_LIMIT_API_PER_USER: z.coerce.number().int().positive().default(200),
  RATE_LIMIT_API_PER_IP: z.coerce.number().int().positive().default(100),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_AUTH_ATTEMPTS: z.coerce.number().int().positive().default(5),
  RATE_LIMIT_AUTH_WINDOW_SECONDS: z.coerce.number().int().positive().default(1800),
  MAX_REQUEST_BODY_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  /** An event queue no client has polled for this long is collected (Zulip: 600 s). */
  EVENT_QUEUE_TIMEOUT_SECONDS: z.coerce.number().int().positive().default(600),
  /** A long-poll with nothing to deliver gets a heartbeat after this, plus up to 10 s of jitter (Zulip: 45 s). */
  EVENT_HEARTBEAT_SECONDS: z.coerce.number().positive().default(45),
  /**
   * The gateway serves GET /events straight off its connections (PollSockets), handing any
   * connection to node:http at its first request that is not a plain poll; false: node:http
   * serves every request.
   */
  EVENT_POLL_SOCKETS: bool(true),
  /** After SIGTERM: how long a process answers not-ready while still serving, before it closes. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(60).default(2),
  /**
   * The fan-out's lease: how long a gateway replica that stopped renewing it (killed, paused)
   * keeps it, and so how long its unacknowledged events wait before another replica takes over.
   */
  EVENT_FANOUT_ACK_WAIT_SECONDS: z.coerce.number().int().positive().default(10),
  /** How often each service's outbox relay looks for events their writers left unpublished. */
  OUTBOX_SWEEP_MS: z.coerce.number().int().positive().default(1000),
  /** How old an outbox row must be before a relay publishes it: its writer normally has by then. */
  OUTBOX_GRACE_MS: z.coerce.number().int().nonnegative().default(3000),
  /** The most domain events the fan-out holds unacknowledged, and so the largest batch it fans out at once. */
  EVENT_FANOUT_MAX_IN_FLIGHT: z.coerce.number().int().positive().default(256),
  /**
   * How many partitions the fan-out is split into (organizations by id modulo this number), each
   * fanned out by one gateway replica at a time, spread evenly over the replicas. The same for
   * every replica of a deployment.
   */
  EVENT_FANOUT_PARTITIONS: z.coerce.number().int().positive().max(256).default(8),
  /**
   * POST /register's per-organization cache of the people (each gateway replica's own): how
   * many organizations it keeps, how long an entry serves at most (changes made without an
   * event, such as a restored database; 0: only registers arriving while it is fetched share
   * it), and how many people each request to users-groups fetches when it fills (NATS carries
   * at most 1 MB a message).
   */
  REGISTER_CACHE_ORGANIZATIONS: z.coerce.number().int().positive().default(64),
  REGISTER_CACHE_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(300),
  REGISTER_PEOPLE_PAGE_SIZE: z.coerce.number().int().positive().max(2000).default(500),
  /**
   * Outgoing mail (Zulip's names). With no EMAIL_HOST, mail is not sent but written to the log
   * (the local default); otherwise SMTP to EMAIL_HOST:EMAIL_PORT, with STARTTLS required when
   * EMAIL_USE_TLS, and login when EMAIL_HOST_USER is set.
   */
  EMAIL_HOST: z.string().default(''),
  EMAIL_PORT: port(587),
  EMAIL_HOST_USER: z.string().default(''),
  EMAIL_HOST_PASSWORD: z.string().default(''),
  EMAIL_USE_TLS: bool(true),
  /** The sender of automated mail; empty means `noreply@<EXTERNAL_URL's host name>`. */
  NOREPLY_EMAIL_ADDRESS: z.string().default(''),
  /** Outgoing mail goes through a queue (MailQueue): attempts per mail, and the first retry's delay (doubling after). */
  MAIL_ATTEMPTS: z.coerce.number().int().positive().default(10),
  MAIL_BACKOFF_MS: z.coerce.number().int().positive().default(2000),
  /**
   * The mobile push relay (Zulip's push notification bouncer, ZULIP_SERVICES_URL): its base URL,
   * empty when push is not configured (PUSH_SERVICE_NOT_CONFIGURED), and this server's
   * credentials there (Zulip's ZULIP_ORG_ID and ZULIP_ORG_KEY, sent as HTTP Basic auth).
   */
  PUSH_RELAY_URL: z.union([z.literal(''), z.string().url()]).default(''),
  PUSH_RELAY_ORG_ID: z.string().default(''),
  PUSH_RELAY_ORG_KEY: z.string().default(''),
  /** A relay request not answered within this fails as a connection error (Zulip: 30 s). */
  PUSH_RELAY_TIMEOUT_MS: z.coerce.number().int().positive().default(30000),
  /** A device registration the relay could not take (network, 5xx, configuration) is tried again this often… */
  PUSH_REGISTRATION_RETRY_MS: z.coerce.number().int().positive().default(60000),
  /** …this many times in all; a device still pending after that is retried when the push service next starts. */
  PUSH_REGISTRATION_ATTEMPTS: z.coerce.number().int().positive().default(5),
  /**
   * Notifications of messages (push service): a push to the relay that fails (unreachable, 5xx)
   * is tried PUSH_NOTIFY_ATTEMPTS times in all, BullMQ's exponential backoff from
   * PUSH_NOTIFY_BACKOFF_MS; after the last, the job stays in the queue's failed set, logged.
   */
  PUSH_NOTIFY_ATTEMPTS: z.coerce.number().int().positive().default(8),
  PUSH_NOTIFY_BACKOFF_MS: z.coerce.number().int().positive().default(2000),
  /**
   * Outgoing webhooks (messaging's worker): a service that does not answer within
   * OUTGOING_WEBHOOK_TIMEOUT_MS (Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS, 10 s) or cannot be
   * reached is tried OUTGOING_WEBHOOK_ATTEMPTS times in all (Zulip's one try and three retries),
   * BullMQ's exponential backoff from OUTGOING_WEBHOOK_BACKOFF_MS; then the bot answers
   * "Failure! Bot is unavailable" and its owner is told.
   */
  OUTGOING_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  OUTGOING_WEBHOOK_ATTEMPTS: z.coerce.number().int().positive().default(4),
  OUTGOING_WEBHOOK_BACKOFF_MS: z.coerce.number().int().positive().default(1000),
  /**
   * Missed-message emails wait each recipient's `email_notifications_batching_period_seconds`
   * (Zulip's default 120 s); a non-zero value here replaces it for everyone (tests, benchmarks).
   */
  EMAIL_BATCHING_PERIOD_OVERRIDE_SECONDS: z.coerce.number().min(0).default(0),
  /** How often the presence service writes the presence kept live in Redis to Postgres. */
  PRESENCE_FLUSH_INTERVAL_MS: z.coerce.number().int().positive().default(10000),

  /**
   * Uploads. The uploads service serves the routes that carry a file's bytes (POST /user_uploads,
   * the files, tus) on its own HTTP listener, UPLOADS_HTTP_PORT, which only the gateway reaches
   * (UPLOADS_URL): never expose it, it trusts the caller the gateway names.
   */
  UPLOADS_HTTP_PORT: port(9108),
  UPLOADS_URL: z.string().url().default('http://127.0.0.1:9108'),
  /** Where files are kept: `local` (LOCAL_UPLOADS_DIR) or `s3` (the S3_* settings). */
  UPLOADS_BACKEND: z.enum(['local', 's3']).default('local'),
  LOCAL_UPLOADS_DIR: z.string().default('var/uploads'),
  /** S3-compatible object storage (Zulip's names); S3_ENDPOINT_URL for anything but AWS. */
  S3_AUTH_UPLOADS_BUCKET: z.string().default(''),
  S3_ENDPOINT_URL: z.string().default(''),
  S3_REGION: z.string().default('us-east-1'),
  S3_KEY: z.string().default(''),
  S3_SECRET_KEY: z.string().default(''),
  /**
   * The domain of channels' incoming email addresses (`<channel>.<token>@<domain>`, Zulip's
   * EMAIL_GATEWAY_PATTERN); empty means EXTERNAL_URL's host name. The gateway itself is not run yet.
   */
  EMAIL_GATEWAY_DOMAIN: z.string().default(''),
  /**
   * Avatars (Zulip's settings of the same names): whether users without an uploaded avatar get
   * their Gravatar (else Zulip's default image), the secret salting uploaded avatars' paths (set
   * it in production: with the default anyone can compute them), and whether users other than
   * administrators may change their avatars at all.
   */
  ENABLE_GRAVATAR: bool(true),
  AVATAR_SALT: z.string().default('teamchat-avatar-salt'),
  AVATAR_CHANGES_DISABLED: bool(false),
  /**
   * Video calls (Zulip's JITSI_SERVER_URL, BIG_BLUE_BUTTON_URL, BIG_BLUE_BUTTON_SECRET): the
   * server's Jitsi Meet (empty: none), and BigBlueButton, offered only when both are set.
   */
  JITSI_SERVER_URL: z.union([z.literal(''), z.string().url()]).default('https://meet.jit.si'),
  BIG_BLUE_BUTTON_URL: z.union([z.literal(''), z.string().url()]).default(''),
  BIG_BLUE_BUTTON_SECRET: z.string().default(''),
  /**
   * Password strength (Zulip's PASSWORD_MIN_LENGTH and PASSWORD_MIN_GUESSES): the fewest
   * characters a new password may have, and the guesses below which it is refused as too easy to
   * guess (estimated here by the commonest passwords and trivial runs; 0 turns that check off).
   * Zulip's development server, which its documented API examples run against, sets both to 0.
   */
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(0).default(6),
  PASSWORD_MIN_GUESSES: z.coerce.number().int().min(0).default(10000),
  /** Each organization's upload quota in MiB (Zulip's plan quota); 0 means none. */
  REALM_UPLOAD_QUOTA_MIB: z.coerce.number().min(0).default(0),
  /**
   * Organization data exports (POST /export/realm): larger organizations are refused with
   * "Please request a manual export from ZULIP_ADMINISTRATOR." (Zulip's limits: 250,000
   * exportable messages, 20 GiB of uploads); the command line's export has no limit.
   */
  REALM_EXPORT_MAX_MESSAGES: z.coerce.number().int().min(0).default(250000),
  REALM_EXPORT_MAX_UPLOAD_MIB: z.coerce.number().min(0).default(20 * 1024),
  /** The server's support address (Zulip's ZULIP_ADMINISTRATOR), named in the texts that send people to it. */
  ZULIP_ADMINISTRATOR: z.string().default('zulip-admin@example.com'),

  /**
   * Tracing (OpenTelemetry): spans go over OTLP/HTTP to this collector URL (e.g.
   * http://otel-collector:4318); empty means tracing is off and costs nothing. The SDK's other
   * standard OTEL_* variables (OTEL_TRACES_SAMPLER, OTEL_BSP_SCHEDULE_DELAY, …) apply as well.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.union([z.literal(''), z.string().url()]).default(''),
});

export type AppConfig = z.infer<typeof configSchema>;

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {}

/** Reads and validates the environment; the error lists every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** NATS_URL's servers: one, or a cluster's, comma-separated. */
export const natsServers = (config: Pick<AppConfig, 'NATS_URL'>): string[] =>
  config.NATS_URL.split(',')
    .map((server) => server.trim())
    .filter((server) => server.length > 0);
