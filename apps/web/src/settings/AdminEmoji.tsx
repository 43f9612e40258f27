import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { postFile } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { RealmEmoji } from '../api/types';
import { mayAddEmoji, type ChatState } from '../events/chat-state';
import { activeCustomEmoji } from '../messages/EmojiGlyph';
import { Outcome, useOutcome } from './outcome';

/** Whether I may deactivate an emoji: administrators any, its author theirs while they may add emoji (Zulip's check). */
const mayDelete = (state: ChatState, emoji: RealmEmoji) => state.me.isAdmin || (emoji.author_id === state.me.user_id && mayAddEmoji(state));

/**
 * The organization's custom emoji (#organization/emoji), open to everyone as in Zulip: the list
 * (image, name, author), "Add a new emoji" (a name and an image, for those the organization lets
 * add emoji) and "Delete" where allowed. The realm_emoji events keep it current.
 */
export function AdminEmoji({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const emoji = activeCustomEmoji(state.realmEmoji);

  function add(event: FormEvent) {
    event.preventDefault();
    if (!file) return;
    void run(() => postFile(`/realm/emoji/${encodeURIComponent(name.trim())}`, file)).then((done) => {
      if (!done) return;
      setName('');
      setFile(null);
      if (picker.current) picker.current.value = '';
    });
  }

  return (
    <>
      {mayAddEmoji(state) && (
        <form aria-label={t('Add a new emoji')} onSubmit={add}>
          <h2>{t('Add a new emoji')}</h2>
          <label htmlFor="emoji-name">{t('Emoji name')}</label>
          <input id="emoji-name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={50} />
          <label htmlFor="emoji-file">{t('Emoji image')}</label>
          <input id="emoji-file" ref={picker} type="file" accept="image/*" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
          <button type="submit" disabled={name.trim() === '' || !file}>
            {t('Add emoji')}
          </button>
        </form>
      )}
      <Outcome outcome={outcome} />
      <h2>{t('Custom emoji')}</h2>
      {emoji.length === 0 ? (
        <p className="muted">{t('There are no custom emoji.')}</p>
      ) : (
        <table aria-label={t('Custom emoji')}>
          <thead>
            <tr>
              <th scope="col">{t('Name')}</th>
              <th scope="col">{t('Image')}</th>
              <th scope="col">{t('Author')}</th>
              <th scope="col">{t('Actions')}</th>
            </tr>
          </thead>
          <tbody>
            {emoji.map((e) => (
              <tr key={e.id}>
                <th scope="row">{e.name}</th>
                <td>
                  <img className="emoji-img" src={e.source_url} alt={`:${e.name}:`} />
                </td>
                <td>{e.author_id !== null ? (state.users[e.author_id]?.full_name ?? t('Someone')) : t('Unknown author')}</td>
                <td>
                  {mayDelete(state, e) && (
                    <button type="button" className="secondary small" onClick={() => void run(() => ok(typedApi.DELETE('/realm/emoji/{emoji_name}', { params: { path: { emoji_name: e.name } } })))}>
                      {t('Delete {{name}}', { name: e.name })}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
