import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';
import { realmExportSchema } from '../uploads/realm-export';
import { base } from './client-event-shapes';

// Client events of organization data exports, to the organization's administrators.

/** `realm_export`: every data export of the organization, after one was requested, finished, failed or was deleted. */
export const realmExportEvent = apiSchema('RealmExportEvent', z.object({ ...base('realm_export'), exports: z.array(realmExportSchema) }));

/** `realm_export_consent`: a user's allow_private_data_export changed. */
export const realmExportConsentEvent = apiSchema(
  'RealmExportConsentEvent',
  z.object({ ...base('realm_export_consent'), user_id: int(), consented: z.boolean() }),
);
