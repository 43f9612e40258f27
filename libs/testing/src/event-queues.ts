import type { ApiClient, ApiResponse, Credentials, FormValue } from './api-client';

export interface QueueEvent {
  id: number;
  type: string;
  [key: string]: unknown;
}

interface Caller {
  auth: Credentials;
  subdomain: string;
}

/**
 * A client's event queue as a Zulip client uses it: POST /register, then GET /events with the
 * last id it has seen. `via` reaches the same queue through another gateway replica.
 */
export class EventQueueClient {
  /** Every event received so far, in order. */
  readonly received: QueueEvent[] = [];
  lastEventId = -1;

  private constructor(
    private readonly api: ApiClient,
    readonly caller: Caller,
    readonly queueId: string,
    readonly state: Record<string, unknown>,
  ) {}

  static async register(api: ApiClient, caller: Caller, params: Record<string, FormValue> = {}): Promise<EventQueueClient> {
    const res = await api.post('/register', params, caller);
    if (res.status !== 200) throw new Error(`POST /register failed: ${res.status} ${JSON.stringify(res.body)}`);
    return new EventQueueClient(api, caller, res.body.queue_id as string, res.body);
  }

  /** The same queue (and position) through another gateway. */
  via(api: ApiClient): EventQueueClient {
    const other = new EventQueueClient(api, this.caller, this.queueId, this.state);
    other.lastEventId = this.lastEventId;
    return other;
  }

  /** One GET /events acknowledging `lastEventId`, as sent. */
  request(options: { dontBlock?: boolean; lastEventId?: number } = {}): Promise<ApiResponse<{ events: QueueEvent[]; queue_id: string }>> {
    return this.api.get<{ events: QueueEvent[]; queue_id: string }>(
      '/events',
      { queue_id: this.queueId, last_event_id: options.lastEventId ?? this.lastEventId, dont_block: options.dontBlock ?? false },
      this.caller,
    );
  }

  /** One poll; the events it returns are recorded and acknowledged by the next one. */
  async poll(options: { dontBlock?: boolean } = {}): Promise<QueueEvent[]> {
    const res = await this.request(options);
    if (res.status !== 200) throw new Error(`GET /events failed: ${res.status} ${JSON.stringify(res.body)}`);
    const events = res.body.events;
    this.received.push(...events);
    if (events.length > 0) this.lastEventId = events[events.length - 1].id;
    return events;
  }

  /** Polls until `count` events (heartbeats aside) of `type` have arrived since the queue was made. */
  async waitFor(type: string, count = 1, timeoutMs = 10000): Promise<QueueEvent[]> {
    const deadline = Date.now() + timeoutMs;
    const matching = () => this.received.filter((event) => event.type === type);
    while (matching().length < count) {
      if (Date.now() > deadline) throw new Error(`Expected ${count} ${type} event(s) on ${this.queueId}, got ${JSON.stringify(this.received)}`);
      await this.poll({ dontBlock: true });
      if (matching().length < count) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return matching();
  }

  /** Gives late events a moment, then returns everything but heartbeats received so far. */
  async settle(ms = 500): Promise<QueueEvent[]> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await this.poll({ dontBlock: true });
    return this.received.filter((event) => event.type !== 'heartbeat');
  }
}
