import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';
import { clientEventSchema, defineEvent } from '../event';

/**
 * Organization data exports (zerver/views/realm_export.py, zerver/lib/export.py): an
 * administrator asks for one, the uploads service's realm-export worker writes the archive
 * (one tar.gz in the upload storage) and every administrator's clients hear of each step
 * (`realm_export` events). See docs/architecture.md, Organization export and import.
 */

/** Zulip's RealmExport.EXPORT_PUBLIC: public data only (public channels' messages). */
export const EXPORT_PUBLIC = 1;
/** Zulip's RealmExport.EXPORT_FULL_WITH_CONSENT: also the private data of the users who allow it. */
export const EXPORT_FULL_WITH_CONSENT = 2;

/** A data export as GET /export/realm and the `realm_export` events list it (Zulip's get_realm_exports_serialized). */
export const realmExportSchema = apiSchema(
  'RealmExport',
  z.object({
    id: int(),
    acting_user_id: int(),
    /** When it was requested, in Unix seconds. */
    export_time: z.number(),
    deleted_timestamp: z.number().nullable(),
    failed_timestamp: z.number().nullable(),
    /** Where the archive is served (credentials of an administrator of the organization needed); null until it succeeded. */
    export_url: z.string().nullable(),
    /** Requested or being written. */
    pending: z.boolean(),
    export_type: int(),
  }),
);
export type RealmExportRecord = z.infer<typeof realmExportSchema>;

export const exportRealm = defineApiCommand('uploads', 'export_realm', {
  route: 'POST /export/realm',
  summary: 'Starts a data export of the organization (administrators): 1 public data, 2 also the private data of consenting users.',
  params: { export_type: param.int().default(EXPORT_PUBLIC) },
  response: z.object({ id: int() }),
});

export const listRealmExports = defineApiCommand('uploads', 'list_realm_exports', {
  route: 'GET /export/realm',
  summary: "The organization's data exports, oldest first (administrators).",
  params: {},
  response: z.object({ exports: z.array(realmExportSchema) }),
});

export const deleteRealmExport = defineApiCommand('uploads', 'delete_realm_export', {
  route: 'DELETE /export/realm/{export_id}',
  summary: 'Deletes the archive of a finished data export (administrators).',
  params: { export_id: param.int() },
  response: emptyResponse,
});

export const listRealmExportConsents = defineApiCommand('uploads', 'list_realm_export_consents', {
  route: 'GET /export/realm/consents',
  summary: "Whether each active human user allows administrators to export their private data (administrators).",
  params: {},
  response: z.object({ export_consents: z.array(z.object({ user_id: int(), consented: z.boolean() })) }),
});

/** The BullMQ queue and job that write an export's archive (uploads service). */
export const REALM_EXPORT_QUEUE = 'realm-export';
export const REALM_EXPORT_JOB = 'export-realm.v1';
export const realmExportJobSchema = z.object({ exportId: z.number().int(), realmId: z.number().int(), realmUrl: z.string() });
export type RealmExportJob = z.infer<typeof realmExportJobSchema>;

/** Where finished archives are served, on the organization's host: `<this>/<realm id>/<random>/<file>.tar.gz`. */
export const REALM_EXPORTS_PATH = '/user_uploads/exports';

export const RealmExportEvents = {
  /** `realm_export` (every export of the organization), to its active human administrators. */
  realmExportsChanged: defineEvent('uploads', 'realm_exports_changed', clientEventSchema),
};
