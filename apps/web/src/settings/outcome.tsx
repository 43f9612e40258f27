import { useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { t as translate } from '../i18n/i18n';

/** A form's outcome: "Saved." (a status) or the server's refusal (an alert). */
export function useOutcome() {
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  return {
    outcome,
    async run(work: () => Promise<unknown>, done = translate('Saved.')) {
      setOutcome(null);
      try {
        await work();
        setOutcome({ ok: true, text: done });
        return true;
      } catch (failure) {
        setOutcome({ ok: false, text: failure instanceof ApiError ? failure.message : translate('Something went wrong. Try again.') });
        return false;
      }
    },
  };
}

export function Outcome({ outcome }: { outcome: { ok: boolean; text: string } | null }): ReactNode {
  if (!outcome) return null;
  return outcome.ok ? (
    <p role="status">{outcome.text}</p>
  ) : (
    <p role="alert" className="error">
      {outcome.text}
    </p>
  );
}

