import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { RealmExport } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { EXPORTS } from '../events/dispatch';
import { Outcome, useOutcome } from './outcome';

/** Zulip's export types: public data only, or also the private data of those who consent. */
const EXPORT_TYPES = { PUBLIC: 1, FULL_WITH_CONSENT: 2 } as const;

/** "Privacy": the consent to administrators exporting my private data (allow_private_data_export). */
export function ExportConsentForm({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [chosen, setChosen] = useState<boolean | null>(null);
  const checked = chosen ?? state.settings.allow_private_data_export === true;
  return (
    <form aria-label={t('Privacy')} onSubmit={(event) => event.preventDefault()}>
      <h2>{t('Privacy')}</h2>
      <label className="choice">
        <input
          type="checkbox"
          checked={checked}
          onChange={(event) => {
            const next = event.target.checked;
            setChosen(next);
            void run(() => ok(typedApi.PATCH('/settings', { body: { allow_private_data_export: next } }))).then((done) => setChosen(done ? next : null));
          }}
        />{' '}
        {t('Allow my private data to be exported')}
      </label>
      <p className="muted">{t('Administrators may then include your private messages and channels in an export of the organization.')}</p>
      <Outcome outcome={outcome} />
    </form>
  );
}

/** An export's state, as Zulip's export table shows it. */
function ExportStatus({ row }: { row: RealmExport }) {
  const { t } = useTranslation();
  if (row.deleted_timestamp !== null) return <>{t('Deleted')}</>;
  if (row.failed_timestamp !== null) return <>{t('Failed')}</>;
  if (row.pending || !row.export_url) return <>{t('Pending')}</>;
  return <a href={row.export_url}>{t('Download export from {{time}}', { time: new Date(row.export_time * 1000).toLocaleString() })}</a>;
}

/**
 * Data export (#organization/data-export, administrators): start a public or a full export
 * (POST /export/realm), and the exports with their state, a download link, and "Delete" (the
 * list is GET /export/realm, then each `realm_export` event replaces it).
 */
export function AdminExport({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [type, setType] = useState<number>(EXPORT_TYPES.PUBLIC);
  const exports = useQuery({
    queryKey: EXPORTS,
    queryFn: async ({ signal }) => (await ok(typedApi.GET('/export/realm', { signal }))).exports,
    staleTime: Infinity,
  });
  const consents = useQuery({
    queryKey: ['export_consents'],
    queryFn: async ({ signal }) => (await ok(typedApi.GET('/export/realm/consents', { signal }))).export_consents,
    staleTime: 0,
  });
  const consenting = (consents.data ?? []).filter((c) => c.consented).length;
  const rows = [...(exports.data ?? [])].sort((a, b) => b.export_time - a.export_time);
  function start(event: FormEvent) {
    event.preventDefault();
    void run(() => ok(typedApi.POST('/export/realm', { body: { export_type: type } })), t('Export started. Check back in a few minutes.'));
  }
  return (
    <>
      <form aria-label={t('Export organization')} onSubmit={start}>
        <h2>{t('Export organization')}</h2>
        <p className="muted">{t('An export holds the organization’s data as a .tar.gz archive, which can be imported into another server.')}</p>
        <fieldset>
          <legend>{t('Export type')}</legend>
          <label className="choice">
            <input type="radio" name="export-type" checked={type === EXPORT_TYPES.PUBLIC} onChange={() => setType(EXPORT_TYPES.PUBLIC)} /> {t('Public data')}
          </label>
          <label className="choice">
            <input type="radio" name="export-type" checked={type === EXPORT_TYPES.FULL_WITH_CONSENT} onChange={() => setType(EXPORT_TYPES.FULL_WITH_CONSENT)} /> {t('Standard (with private data of users who consent)')}
          </label>
        </fieldset>
        {consents.data && <p className="muted">{t('{{count}} of {{total}} users allow their private data to be exported.', { count: consenting, total: consents.data.length })}</p>}
        <button type="submit">{t('Start export')}</button>
        <Outcome outcome={outcome} />
      </form>
      {exports.isError && (
        <p role="alert" className="error">
          {exports.error instanceof ApiError ? exports.error.message : t('Something went wrong. Try again.')}
        </p>
      )}
      <table aria-label={t('Exports')}>
        <thead>
          <tr>
            <th scope="col">{t('Requested by')}</th>
            <th scope="col">{t('Time')}</th>
            <th scope="col">{t('Type')}</th>
            <th scope="col">{t('Status')}</th>
            <th scope="col">{t('Actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{state.users[row.acting_user_id]?.full_name ?? ''}</td>
              <td>{new Date(row.export_time * 1000).toLocaleString()}</td>
              <td>{row.export_type === EXPORT_TYPES.PUBLIC ? t('Public data') : t('Standard')}</td>
              <td>
                <ExportStatus row={row} />
              </td>
              <td>
                {row.export_url && row.deleted_timestamp === null && (
                  <button type="button" className="secondary small" onClick={() => void run(() => ok(typedApi.DELETE('/export/realm/{export_id}', { params: { path: { export_id: row.id } } })), t('Deleted.'))}>
                    {t('Delete export from {{time}}', { time: new Date(row.export_time * 1000).toLocaleString() })}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {exports.isSuccess && rows.length === 0 && <p className="muted">{t('No exports yet.')}</p>}
    </>
  );
}
