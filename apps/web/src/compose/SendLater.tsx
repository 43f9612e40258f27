import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A date and time as a datetime-local field writes it, in local time, to the second. */
export function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** "Send later": a time (field "Send at", an hour from now to start with) and button "Schedule". */
export function SendLater({ onSchedule, onCancel }: { onSchedule: (at: number) => Promise<unknown>; onCancel: () => void }) {
  const { t } = useTranslation();
  const [when, setWhen] = useState(() => localInputValue(new Date(Date.now() + 3600_000)));
  const at = Math.floor(new Date(when).getTime() / 1000);
  return (
    <div className="send-later" role="group" aria-label={t('Send later')}>
      <label>
        {t('Send at')} <input type="datetime-local" step={1} value={when} onChange={(event) => setWhen(event.target.value)} />
      </label>
      <button type="button" disabled={!Number.isFinite(at)} onClick={() => void onSchedule(at)}>
        {t('Schedule')}
      </button>
      <button type="button" className="secondary" onClick={onCancel}>
        {t('Cancel')}
      </button>
    </div>
  );
}
