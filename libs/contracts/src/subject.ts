import type { ServiceName } from './services';

/**
 * Deployments that share one NATS server keep apart by a namespace prefixed to every subject
 * (`NATS_SUBJECT_PREFIX`, e.g. `staging.`). It is read once, when the contracts load, because
 * Nest binds handlers to subjects at class-definition time.
 */
export const SUBJECT_PREFIX = process.env.NATS_SUBJECT_PREFIX ?? '';

/** `<service>.<verb>.v<version>`, the name of a request/reply command. */
export const commandSubject = (service: ServiceName, verb: string, version = 1): string =>
  `${SUBJECT_PREFIX}${service}.${verb}.v${version}`;

/** `event.<service>.<name>.v<version>`, the name of a domain event on JetStream. */
export const eventSubject = (service: ServiceName, name: string, version = 1): string =>
  `${SUBJECT_PREFIX}event.${service}.${name}.v${version}`;
