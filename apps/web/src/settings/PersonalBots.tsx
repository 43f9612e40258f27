import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ok, typedApi } from '../api/typed-client';
import type { RealmBot } from '../api/types';
import { BOT_TYPES, allowedBotTypes, type ChatState } from '../events/chat-state';
import { Outcome, useOutcome } from './outcome';

/** Zulip's outgoing webhook interfaces: its own payload, or Slack's. */
const INTERFACES = { ZULIP: 1, SLACK: 2 } as const;

function useBotTypeNames(): Record<number, string> {
  const { t } = useTranslation();
  return { [BOT_TYPES.GENERIC]: t('Generic'), [BOT_TYPES.INCOMING_WEBHOOK]: t('Incoming webhook'), [BOT_TYPES.OUTGOING_WEBHOOK]: t('Outgoing webhook') };
}

/** "Add a new bot": its type, name and address (`<short name>-bot@…`), and for an outgoing webhook where it posts (POST /bots). */
function AddBotForm({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const types = allowedBotTypes(state);
  const typeNames = useBotTypeNames();
  const { outcome, run } = useOutcome();
  const [type, setType] = useState<number>(types[0] ?? BOT_TYPES.GENERIC);
  const [name, setName] = useState('');
  const [shortName, setShortName] = useState('');
  const [payloadUrl, setPayloadUrl] = useState('');
  const [interfaceType, setInterfaceType] = useState<number>(INTERFACES.ZULIP);
  if (types.length === 0) return <p className="muted">{t('You may not create bots in this organization.')}</p>;
  const outgoing = type === BOT_TYPES.OUTGOING_WEBHOOK;
  function add(event: FormEvent) {
    event.preventDefault();
    // Zulip reads payload_url as JSON (a quoted string).
    const body = { full_name: name.trim(), short_name: shortName.trim(), bot_type: type, ...(outgoing ? { payload_url: JSON.stringify(payloadUrl.trim()), interface_type: interfaceType } : {}) };
    void run(() => ok(typedApi.POST('/bots', { body })), t('Bot {{name}} created.', { name: name.trim() })).then((done) => {
      if (!done) return;
      setName('');
      setShortName('');
      setPayloadUrl('');
    });
  }
  return (
    <form aria-label={t('Add a new bot')} onSubmit={add}>
      <h2>{t('Add a new bot')}</h2>
      <label htmlFor="bot-type">{t('Bot type')}</label>
      <select id="bot-type" value={type} onChange={(event) => setType(Number(event.target.value))}>
        {types.map((value) => (
          <option key={value} value={value}>
            {typeNames[value]}
          </option>
        ))}
      </select>
      <label htmlFor="bot-name">{t('Name')}</label>
      <input id="bot-name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} />
      <label htmlFor="bot-short-name">{t('Bot email (before -bot@)')}</label>
      <input id="bot-short-name" value={shortName} onChange={(event) => setShortName(event.target.value)} required maxLength={100} />
      {outgoing && (
        <>
          <label htmlFor="bot-payload-url">{t('Endpoint URL')}</label>
          <input id="bot-payload-url" type="url" value={payloadUrl} onChange={(event) => setPayloadUrl(event.target.value)} required />
          <label htmlFor="bot-interface">{t('Outgoing webhook message format')}</label>
          <select id="bot-interface" value={interfaceType} onChange={(event) => setInterfaceType(Number(event.target.value))}>
            <option value={INTERFACES.ZULIP}>{t('Zulip')}</option>
            <option value={INTERFACES.SLACK}>{t('Slack compatible')}</option>
          </select>
        </>
      )}
      <button type="submit" disabled={name.trim() === '' || shortName.trim() === '' || (outgoing && payloadUrl.trim() === '')}>
        {t('Create bot')}
      </button>
      <Outcome outcome={outcome} />
    </form>
  );
}

/** One bot: its address and type, its API key on demand (and a new one), edit its name and owner, deactivate or reactivate it. */
function BotCard({ bot, state }: { bot: RealmBot; state: ChatState }) {
  const { t } = useTranslation();
  const typeNames = useBotTypeNames();
  const { outcome, run } = useOutcome();
  const [showKey, setShowKey] = useState(false);
  const [editing, setEditing] = useState<{ name: string; owner: number } | null>(null);
  const path = { bot_id: bot.user_id };
  const humans = Object.values(state.users)
    .filter((user) => user.is_active !== false && !user.is_bot)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  const payloadUrl = (bot.services as { base_url?: string }[])[0]?.base_url;
  function save(event: FormEvent) {
    event.preventDefault();
    if (!editing) return;
    const body = {
      ...(editing.name.trim() !== bot.full_name ? { full_name: editing.name.trim() } : {}),
      ...(editing.owner !== bot.owner_id ? { bot_owner_id: editing.owner } : {}),
    };
    void run(() => ok(typedApi.PATCH('/bots/{bot_id}', { params: { path }, body }))).then((done) => done && setEditing(null));
  }
  return (
    <li className="card" aria-label={bot.full_name}>
      <div className="row">
        <strong>{bot.full_name}</strong>
        {!bot.is_active && <span className="muted">{t('(deactivated)')}</span>}
      </div>
      <dl>
        <dt>{t('Bot email')}</dt>
        <dd>{bot.email}</dd>
        <dt>{t('Bot type')}</dt>
        <dd>{typeNames[bot.bot_type ?? BOT_TYPES.GENERIC] ?? ''}</dd>
        {payloadUrl && (
          <>
            <dt>{t('Endpoint URL')}</dt>
            <dd>{payloadUrl}</dd>
          </>
        )}
        <dt>{t('Owner')}</dt>
        <dd>{bot.owner_id !== null ? (state.users[bot.owner_id]?.full_name ?? '') : t('None')}</dd>
      </dl>
      {showKey && (
        <>
          <label htmlFor={`bot-key-${bot.user_id}`}>{t('API key of {{name}}', { name: bot.full_name })}</label>
          <input id={`bot-key-${bot.user_id}`} readOnly value={bot.api_key} onFocus={(event) => event.target.select()} />
        </>
      )}
      {editing && (
        <form aria-label={t('Edit bot {{name}}', { name: bot.full_name })} onSubmit={save}>
          <label htmlFor={`bot-edit-name-${bot.user_id}`}>{t('Name')}</label>
          <input id={`bot-edit-name-${bot.user_id}`} value={editing.name} onChange={(event) => setEditing({ ...editing, name: event.target.value })} required maxLength={100} />
          <label htmlFor={`bot-edit-owner-${bot.user_id}`}>{t('Owner')}</label>
          <select id={`bot-edit-owner-${bot.user_id}`} value={editing.owner} onChange={(event) => setEditing({ ...editing, owner: Number(event.target.value) })}>
            {humans.map((user) => (
              <option key={user.user_id} value={user.user_id}>
                {user.full_name}
              </option>
            ))}
          </select>
          <div className="row">
            <button type="submit">{t('Save changes')}</button>
            <button type="button" className="secondary" onClick={() => setEditing(null)}>
              {t('Cancel')}
            </button>
          </div>
        </form>
      )}
      <div className="row wrap">
        {bot.is_active ? (
          <>
            <button type="button" className="secondary small" aria-expanded={showKey} onClick={() => setShowKey(!showKey)}>
              {showKey ? t('Hide API key of {{name}}', { name: bot.full_name }) : t('Show API key of {{name}}', { name: bot.full_name })}
            </button>
            <button
              type="button"
              className="secondary small"
              onClick={() =>
                void run(async () => {
                  await ok(typedApi.POST('/bots/{bot_id}/api_key/regenerate', { params: { path } }));
                  setShowKey(true);
                }, t('A new API key was generated.'))
              }
            >
              {t('Generate new API key for {{name}}', { name: bot.full_name })}
            </button>
            {!editing && (
              <button type="button" className="secondary small" onClick={() => setEditing({ name: bot.full_name, owner: bot.owner_id ?? state.me.user_id })}>
                {t('Edit {{name}}', { name: bot.full_name })}
              </button>
            )}
            <button type="button" className="danger small" onClick={() => void run(() => ok(typedApi.DELETE('/bots/{bot_id}', { params: { path } })), t('Deactivated.'))}>
              {t('Deactivate {{name}}', { name: bot.full_name })}
            </button>
          </>
        ) : (
          // Only administrators reactivate an account, a bot's included (POST /users/{user_id}/reactivate).
          state.me.isAdmin && (
            <button type="button" className="small" onClick={() => void run(() => ok(typedApi.POST('/users/{user_id}/reactivate', { params: { path: { user_id: bot.user_id } } })), t('Reactivated.'))}>
              {t('Reactivate {{name}}', { name: bot.full_name })}
            </button>
          )
        )}
      </div>
      <Outcome outcome={outcome} />
    </li>
  );
}

/**
 * Bots (#settings/bots): "Add a new bot" and "Your bots" — the bots I own, deactivated ones too,
 * kept current by the `realm_bot` events.
 */
export function BotsSettings({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const mine = state.bots.filter((bot) => bot.owner_id === state.me.user_id).sort((a, b) => Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name));
  return (
    <>
      <AddBotForm state={state} />
      <section aria-label={t('Your bots')}>
        <h2>{t('Your bots')}</h2>
        {mine.length === 0 ? (
          <p className="muted">{t('You have no bots.')}</p>
        ) : (
          <ul className="plain">
            {mine.map((bot) => (
              <BotCard key={bot.user_id} bot={bot} state={state} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
