import { Controller, Get, Header, Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One Prometheus registry per process, served at /metrics. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route, method and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly commandDuration = new Histogram({
    name: 'command_duration_seconds',
    help: 'NATS commands handled, by subject and outcome',
    labelNames: ['subject', 'outcome'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly fanoutDuration = new Histogram({
    name: 'event_fanout_duration_seconds',
    help: 'Batches of domain events fanned out to client event queues (gateway), by outcome',
    labelNames: ['outcome'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  /** Commands answered with an error (every command service), by subject and Zulip error code. */
  readonly commandErrors = new Counter({
    name: 'command_errors_total',
    help: 'NATS commands answered with an error, by subject and error code',
    labelNames: ['subject', 'code'],
    registers: [this.registry],
  });

  /** Commands this process called on other services, as the caller saw them (round trip included). */
  readonly commandCallDuration = new Histogram({
    name: 'command_call_duration_seconds',
    help: 'NATS commands called on other services, by subject and outcome (ok, or the error code)',
    labelNames: ['subject', 'outcome'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  /** Gateway: the fan-out partitions this replica holds the lease of (1), by partition and replica (its process id). */
  readonly fanoutPartitionsHeld = new Gauge({
    name: 'event_fanout_partition_held',
    help: 'Fan-out partitions this gateway replica fans out (1 while it holds the partition\'s lease)',
    labelNames: ['partition', 'replica'],
    registers: [this.registry],
  });

  /** Gateway: how long after its publication a domain event reached the fan-out. */
  readonly fanoutLag = new Histogram({
    name: 'event_fanout_lag_seconds',
    help: 'Time from a domain event being published to JetStream to the gateway fanning it out',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  /** Gateway: client event queues registered and deleted by this replica. */
  readonly eventQueuesRegistered = new Counter({
    name: 'event_queues_registered_total',
    help: 'Client event queues registered (POST /register) on this gateway replica',
    registers: [this.registry],
  });

  readonly eventQueuesDeleted = new Counter({
    name: 'event_queues_deleted_total',
    help: 'Client event queues deleted (DELETE /events) on this gateway replica',
    registers: [this.registry],
  });

  /**
   * Gateway: connections its poll server (PollSockets) took, and those it handed to node:http at
   * a request that was not a plain poll.
   */
  readonly pollConnections = new Counter({
    name: 'event_poll_connections_total',
    help: 'Connections the gateway took to serve polls off the socket (opened), and those then handed to node:http (handed_over)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  /**
   * Gateway: long-polls waiting on this replica, and client events handed over by them. Both
   * are read when scraped (`countLongPolls`, `delivered`), not counted through prom-client on
   * every poll: its label hashing was a measurable part of a poll.
   */
  private longPollCount: () => number = () => 0;
  private deliveredSinceScrape = 0;

  readonly longPollsWaiting: Gauge = new Gauge({
    name: 'event_long_polls_in_progress',
    help: 'GET /events requests in progress (mostly waiting) on this gateway replica',
    registers: [this.registry],
    collect: (): void => this.longPollsWaiting.set(this.longPollCount()),
  });

  readonly eventsDelivered: Counter = new Counter({
    name: 'events_delivered_total',
    help: 'Client events handed over by GET /events on this gateway replica',
    registers: [this.registry],
    collect: (): void => {
      this.eventsDelivered.inc(this.deliveredSinceScrape);
      this.deliveredSinceScrape = 0;
    },
  });

  /** Where event_long_polls_in_progress is read from (the gateway's long-polls). */
  countLongPolls(count: () => number): void {
    this.longPollCount = count;
  }

  /** Client events handed over by a poll, counted at the next scrape. */
  delivered(events: number): void {
    this.deliveredSinceScrape += events;
  }

  /** Workers: BullMQ job run time, and the time a job waited to start after it became due. */
  readonly jobDuration = new Histogram({
    name: 'bullmq_job_duration_seconds',
    help: 'BullMQ jobs processed by this replica, by queue and outcome (completed, failed)',
    labelNames: ['queue', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  readonly jobWait = new Histogram({
    name: 'bullmq_job_wait_seconds',
    help: 'Time from a BullMQ job being due to a worker of this replica starting it, by queue',
    labelNames: ['queue'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });

  /** Workers: jobs in the queue by state, read from Redis when /metrics is scraped (never per job). */
  readonly queueJobs = new Gauge({
    name: 'bullmq_queue_jobs',
    help: 'Jobs in a BullMQ queue by state (wait, delayed, active, prioritized, failed), read at scrape time',
    labelNames: ['queue', 'state'],
    registers: [this.registry],
    collect: async () => {
      await Promise.all(
        [...this.queueCounters].map(async ([queue, count]) => {
          const counts = await count().catch(() => undefined);
          if (!counts) return;
          for (const [state, value] of Object.entries(counts)) this.queueJobs.set({ queue, state }, value);
        }),
      );
    },
  });

  private readonly queueCounters = new Map<string, () => Promise<Record<string, number>>>();

  /** A queue whose depth /metrics reports (see bullmq_queue_jobs). */
  watchQueue(queue: string, count: () => Promise<Record<string, number>>): void {
    this.queueCounters.set(queue, count);
  }

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}

@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
