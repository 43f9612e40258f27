import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Messaging } from '@teamchat/contracts';
import { CommandConnection } from '@teamchat/platform';
import { LinkifiersRepository } from '../data/linkifiers.repository';
import type { RenderLinkifier } from '../rendering/linkifiers';
import { preparedMatcher } from './linkifier-pattern';
import { parseTemplate } from './uri-template';

/** Kept at most this long: covers changes no event tells (a database changed by hand). */
const LIFETIME_MS = 60_000;
/** Beyond this many organizations the oldest entry goes first. */
const MAX_ORGANIZATIONS = 5_000;

/**
 * The organizations' linkifiers, compiled, for the renderer on the send path: read once per
 * organization and kept, so a message costs no query for them (and nothing at all when the
 * organization has none). Every `linkifiers_changed` event empties the cache on every replica;
 * the events arrive on the commands' connection (CommandConnection), so a command sent after a
 * change was answered never renders with the old list. A read that began before an emptying
 * is used but not kept.
 */
@Injectable()
export class RealmLinkifiers implements OnModuleInit {
  private readonly entries = new Map<number, { linkifiers: RenderLinkifier[]; expires: number }>();
  private generation = 0;

  constructor(
    private readonly repository: LinkifiersRepository,
    private readonly connection: CommandConnection,
  ) {}

  onModuleInit(): void {
    this.connection.subscribe(Messaging.LinkifierEvents.linkifiersChanged.subject, () => {
      this.generation += 1;
      this.entries.clear();
    });
  }

  async of(realmId: number): Promise<RenderLinkifier[]> {
    const now = Date.now();
    const kept = this.entries.get(realmId);
    if (kept && kept.expires > now) return kept.linkifiers;
    const generation = this.generation;
    const linkifiers = compileAll(await this.repository.ofRealm(realmId));
    if (generation === this.generation) {
      this.entries.delete(realmId);
      if (this.entries.size >= MAX_ORGANIZATIONS) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(realmId, { linkifiers, expires: now + LIFETIME_MS });
    }
    return linkifiers;
  }
}

/** Stored linkifiers ready to apply, in order; one that cannot be used matches nothing, as in Zulip. */
export function compileAll(rows: { pattern: string; urlTemplate: string }[]): RenderLinkifier[] {
  const linkifiers: RenderLinkifier[] = [];
  for (const row of rows) {
    const matcher = preparedMatcher(row.pattern);
    const template = parseTemplate(row.urlTemplate);
    if (matcher && template) linkifiers.push({ matcher, template });
  }
  return linkifiers;
}
