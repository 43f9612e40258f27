import { UsersGroups, type ClientEvent, type EventDef } from '@teamchat/contracts';
import { badRequest } from '@teamchat/zulip';
import type { RealmDomainRow } from '../data/realm-settings.repository';

/** Zulip's validate_domain (zerver/lib/domains.py): the reason a domain is refused, or null. */
export function domainProblem(domain: string): string | null {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (domain.length > 255) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const part of domain.split('.')) {
    if (!part) return "Consecutive '.' are not allowed.";
    if (part.startsWith('-') || part.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(part)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

/** Zulip's answer for a domain the organization does not have. */
export const noSuchDomain = (domain: string) => badRequest(`No entry found for domain ${domain}.`);

export const toRealmDomainRecord = (row: RealmDomainRow): UsersGroups.RealmDomainRecord => ({ domain: row.domain, allow_subdomains: row.allowSubdomains });

/** A `realm_domains` event for every active user, written with the change through the outbox. */
export function realmDomainsEvent(realmId: number, users: number[], event: Record<string, unknown>): { def: EventDef<ClientEvent>; payload: ClientEvent } {
  return {
    def: UsersGroups.RealmSettingsEvents.realmDomainsChanged as EventDef<ClientEvent>,
    payload: { realmId, users, event: { type: 'realm_domains', ...event } } as ClientEvent,
  };
}

/**
 * Zulip's email_allowed_for_realm: when the organization restricts addresses to its domains, an
 * address must be at one of them (or a subdomain of one that allows them).
 */
export function emailAllowedByDomains(email: string, domains: readonly Pick<RealmDomainRow, 'domain' | 'allowSubdomains'>[]): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return domains.some((row) => row.domain === domain || (row.allowSubdomains && domain.endsWith(`.${row.domain}`)));
}
