/** The seven services. Each non-gateway service listens in a NATS queue group of its own name. */
export const SERVICES = ['gateway', 'messaging', 'scheduler', 'presence', 'users-groups', 'uploads', 'push'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The services that answer commands over NATS (all but the gateway). */
export const COMMAND_SERVICES = SERVICES.filter((name) => name !== 'gateway') as Exclude<ServiceName, 'gateway'>[];
