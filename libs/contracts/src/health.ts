import { z } from 'zod';
import { COMMAND_SERVICES, type ServiceName } from './services';
import { defineCommand, type CommandDef } from './command';

export interface HealthReport {
  service: ServiceName;
  ready: boolean;
  /** Each dependency the service needs, and whether it answered. */
  checks: Record<string, boolean>;
}

const healthPayload = z.object({});

/** `<service>.health.v1` for every command service: who answers, and are its dependencies up. */
export const HealthCommands = Object.fromEntries(
  COMMAND_SERVICES.map((service) => [service, defineCommand<Record<string, never>, HealthReport>(service, 'health', healthPayload)]),
) as Record<(typeof COMMAND_SERVICES)[number], CommandDef<Record<string, never>, HealthReport>>;
