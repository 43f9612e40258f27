import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { ChatState } from '../events/chat-state';
import { PICKER_EMOJI, emojiGlyph } from '../messages/emoji';

/**
 * The dialog "Set status": an emoji (one of the picker's, or none) and a text, saved through
 * POST /users/me/status; "Clear status" empties both. The user_status event shows it everywhere.
 */
export function StatusDialog({ state, onClose }: { state: ChatState; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const current = state.statuses[state.me.user_id] ?? {};
  const [text, setText] = useState(current.status_text ?? '');
  const [emoji, setEmoji] = useState(current.emoji_name ?? '');
  const [error, setError] = useState<string | null>(null);

  async function save(status_text: string, emojiName: string) {
    setError(null);
    const chosen = PICKER_EMOJI.find((e) => e.name === emojiName);
    try {
      await ok(
        typedApi.POST('/users/me/status', {
          body: { status_text, emoji_name: chosen?.name ?? '', emoji_code: chosen?.code ?? '', reaction_type: chosen ? 'unicode_emoji' : '' },
        }),
      );
      onClose();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.'));
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void save(text.trim(), emoji);
  }

  return (
    <form className="status-dialog" role="dialog" aria-label={t('Set status')} onSubmit={submit} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <label>
        <span id={`${id}-emoji`}>{t('Status emoji')}</span>
        <select aria-labelledby={`${id}-emoji`} value={emoji} onChange={(event) => setEmoji(event.target.value)}>
          <option value="">{t('No emoji')}</option>
          {PICKER_EMOJI.map((entry) => (
            <option key={entry.name} value={entry.name}>
              {emojiGlyph(entry.code, 'unicode_emoji', entry.name)} {entry.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span id={`${id}-text`}>{t('Status text')}</span>
        <input aria-labelledby={`${id}-text`} value={text} onChange={(event) => setText(event.target.value)} maxLength={60} autoFocus />
      </label>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="buttons">
        <button type="submit">{t('Save status')}</button>
        <button type="button" className="secondary" onClick={() => void save('', '')}>
          {t('Clear status')}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}
