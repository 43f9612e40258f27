import type { CommandConnection } from '@teamchat/platform';

/** Beyond this many organizations the oldest entry goes first. */
const MAX_ORGANIZATIONS = 1_000;
/** What no event tells (a database changed by hand) is seen within this time. */
const LIFETIME_MS = 10 * 60_000;

/**
 * Something of each organization a send needs (its alert words, who muted whom), read once per
 * organization instead of once per message. Any event of `subject` empties it on every replica:
 * the event arrives on the commands' connection (CommandConnection) before the change's command
 * answers, so a send that follows a change never sees the old value. A read that began before
 * an emptying is used but not kept.
 */
export class RealmCache<T> {
  private readonly entries = new Map<number, { value: T; expires: number }>();
  private generation = 0;

  constructor(
    private readonly load: (realmId: number) => Promise<T>,
    connection: CommandConnection,
    subject: string,
  ) {
    connection.subscribe(subject, () => {
      this.generation += 1;
      this.entries.clear();
    });
  }

  async of(realmId: number): Promise<T> {
    const now = Date.now();
    const kept = this.entries.get(realmId);
    if (kept && kept.expires > now) return kept.value;
    const generation = this.generation;
    const value = await this.load(realmId);
    if (generation === this.generation) {
      this.entries.delete(realmId);
      if (this.entries.size >= MAX_ORGANIZATIONS) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(realmId, { value, expires: now + LIFETIME_MS });
    }
    return value;
  }
}
