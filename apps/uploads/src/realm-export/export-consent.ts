import { EmailVisibility, resolveSettings } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import type { ExportUser } from '../data/organization-data.readonly.repository';

/** A user's resolved allow_private_data_export and email_address_visibility (stored, over the organization's defaults). */
export function privacyOf(user: ExportUser): { consents: boolean; visibility: number } {
  const settings = resolveSettings(user.defaults, user.settings);
  return { consents: settings.allow_private_data_export, visibility: settings.email_address_visibility };
}

/**
 * Whose private data a consent export carries (Zulip's get_consented_user_ids): humans who
 * allow it, bots that allow it, and bots of a consenting human.
 */
export function consentingUserIds(users: ExportUser[]): Set<number> {
  const humans = new Set(users.filter((u) => !u.isBot && privacyOf(u).consents).map((u) => u.id));
  const bots = users.filter((u) => u.isBot && (privacyOf(u).consents || (u.botOwnerId !== null && humans.has(u.botOwnerId))));
  return new Set([...humans, ...bots.map((u) => u.id)]);
}

/** A consent export leaves the organization usable only with a consenting owner (check_export_with_consent_is_usable). */
export const consentExportUsable = (users: ExportUser[]): boolean => {
  const consenting = consentingUserIds(users);
  return users.some((u) => u.role === Role.OWNER && consenting.has(u.id));
};

/** A public export leaves the organization usable only with an owner whose address may be exported (check_public_export_is_usable). */
export const publicExportUsable = (users: ExportUser[]): boolean =>
  users.some((u) => u.role === Role.OWNER && privacyOf(u).visibility !== EmailVisibility.NOBODY);
