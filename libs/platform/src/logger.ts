import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/** How a person reads a log line in a terminal: time, level, message, then the fields on one line. */
export const PRETTY_LOG_OPTIONS = {
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname',
  singleLine: true,
} as const;

/**
 * Whether logs are for a person: a terminal, outside production. Piped (the launcher, a log
 * collector, Kubernetes) or in production they stay JSON, one object per line.
 */
export const logsForPeople = (): boolean => Boolean(process.stdout.isTTY) && process.env.NODE_ENV !== 'production';

/** Logs on stdout, one logger per process, tagged with the service name: JSON, or readable in a terminal. */
export function createLogger(service: string, level: string): Logger {
  const options = { level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime };
  if (!logsForPeople()) return pino(options);
  // Loaded only for a person's terminal: a service in production or under the launcher never needs it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { build: pretty } = require('pino-pretty') as typeof import('pino-pretty');
  return pino(options, pretty({ ...PRETTY_LOG_OPTIONS, colorize: true, sync: true }));
}

/** Lets Nest's own messages go through pino too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}

export const LOGGER = Symbol('LOGGER');
