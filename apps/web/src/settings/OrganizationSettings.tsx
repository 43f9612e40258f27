import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
// The one list of languages the server accepts (plain data, no imports of its own).
import { LANGUAGES } from '../../../../libs/contracts/src/users-groups/languages';
import { api, postFile, type Params } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { GroupSettingValue } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { CHANNELS } from './AdminChannels';
import { GroupSettingSelect } from './group-settings';
import { Outcome, useOutcome } from './outcome';

/**
 * The organization's own settings, as Zulip's settings overlay has them: #organization/
 * organization-profile (name, description, icon and logos), …/organization-settings (language,
 * calls, read receipts, the moderation request channel, Welcome Bot's message) and
 * …/organization-permissions (who may do what, message editing limits, allowed email domains).
 * Every change is saved at once through PATCH /realm (or the icon, logo and domain endpoints);
 * the page shows the `realm` and `realm_domains` events' values, so it follows changes made
 * elsewhere. Everyone may look; only administrators change anything (the controls are disabled
 * for others, as in Zulip, and the server refuses them the same calls); some settings are the
 * owners' and the server says so.
 */

/** PATCH /realm with these changes; the outcome shows "Saved." or Zulip's refusal. */
function useRealmChange() {
  const { outcome, run } = useOutcome();
  return { outcome, change: (changes: Params) => run(() => api.patch('/realm', changes)) };
}

/** The note members see above the read-only settings. */
function ReadOnlyNote({ state }: { state: ChatState }): ReactNode {
  const { t } = useTranslation();
  if (state.me.isAdmin) return null;
  return (
    <p role="note" className="muted">
      {t('Only organization administrators can change these settings.')}
    </p>
  );
}

type ImageKind = 'icon' | 'logo' | 'night_logo';

/** One of the organization's images: shown, replaced by an upload, or back to the default. */
function RealmImage({ state, kind }: { state: ChatState; kind: ImageKind }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const picker = useRef<HTMLInputElement>(null);
  const labels: Record<ImageKind, { image: string; upload: string; remove: string }> = {
    icon: { image: t('Organization icon'), upload: t('Upload icon'), remove: t('Delete icon') },
    logo: { image: t('Organization logo'), upload: t('Upload logo'), remove: t('Delete logo') },
    night_logo: { image: t('Organization logo for the dark theme'), upload: t('Upload night logo'), remove: t('Delete night logo') },
  };
  const label = labels[kind];
  const url = String(state.realm[`${kind}_url`] ?? '');
  const uploaded = state.realm[`${kind}_source`] === 'U';
  const night = { night: kind === 'night_logo' ? 'true' : 'false' };

  function upload(file: File | undefined) {
    if (!file) return;
    void run(() => (kind === 'icon' ? postFile('/realm/icon', file) : postFile('/realm/logo', file, night)), t('Uploaded.')).then(() => {
      if (picker.current) picker.current.value = '';
    });
  }
  const remove = () => void run(() => (kind === 'icon' ? api.delete('/realm/icon') : api.delete('/realm/logo', night)), t('Deleted.'));

  return (
    <figure className="realm-image">
      {url && <img src={url} alt={label.image} className={kind === 'icon' ? 'realm-icon' : 'realm-logo'} />}
      <figcaption>{label.image}</figcaption>
      {state.me.isAdmin && (
        <>
          <label className="file-choice">
            {label.upload}{' '}
            <input ref={picker} type="file" accept="image/*" onChange={(event) => upload(event.target.files?.[0])} />
          </label>
          {uploaded && (
            <button type="button" className="secondary small" onClick={remove}>
              {label.remove}
            </button>
          )}
        </>
      )}
      <Outcome outcome={outcome} />
    </figure>
  );
}

/** #organization/organization-profile: name, description, icon and logos. */
export function OrganizationProfile({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, change } = useRealmChange();
  // null: not being edited, so the stored value (kept current by the events) shows.
  const [name, setName] = useState<string | null>(null);
  const [description, setDescription] = useState<string | null>(null);
  const readOnly = !state.me.isAdmin;

  function save(event: FormEvent) {
    event.preventDefault();
    const changes: Params = {};
    if (name !== null && name !== state.realm.name) changes.name = name;
    if (description !== null && description !== state.realm.description) changes.description = description;
    if (Object.keys(changes).length === 0) return;
    void change(changes).then((done) => {
      if (!done) return;
      setName(null);
      setDescription(null);
    });
  }

  return (
    <>
      <ReadOnlyNote state={state} />
      <form aria-label={t('Organization profile')} onSubmit={save}>
        <h2>{t('Organization profile')}</h2>
        <label htmlFor="realm-name">{t('Organization name')}</label>
        <input id="realm-name" value={name ?? String(state.realm.name ?? '')} maxLength={40} disabled={readOnly} onChange={(event) => setName(event.target.value)} />
        <label htmlFor="realm-description">{t('Organization description')}</label>
        <textarea
          id="realm-description"
          value={description ?? String(state.realm.description ?? '')}
          rows={4}
          disabled={readOnly}
          onChange={(event) => setDescription(event.target.value)}
        />
        {!readOnly && (
          <button type="submit" disabled={(name === null && description === null) || (name !== null && name.trim() === '')}>
            {t('Save changes')}
          </button>
        )}
        <Outcome outcome={outcome} />
      </form>
      <section aria-label={t('Organization images')}>
        <h2>{t('Organization images')}</h2>
        <RealmImage state={state} kind="icon" />
        <RealmImage state={state} kind="logo" />
        <RealmImage state={state} kind="night_logo" />
      </section>
    </>
  );
}

/** #organization/organization-settings: language, calls, read receipts, moderation requests, Welcome Bot. */
export function OrganizationGeneralSettings({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, change } = useRealmChange();
  const welcome = useOutcome();
  const [welcomeText, setWelcomeText] = useState<string | null>(null);
  const readOnly = !state.me.isAdmin;
  const channels = useQuery({
    queryKey: CHANNELS,
    queryFn: async ({ signal }) => (await ok(typedApi.GET('/streams', { params: { query: { include_all: 'true' } }, signal }))).streams,
    enabled: !readOnly,
  });
  const privateChannels = (channels.data ?? []).filter((channel) => channel.invite_only && !channel.is_archived);
  const moderationChannel = Number(state.realm.moderation_request_channel_id ?? -1);
  const storedWelcome = String(state.realm.welcome_message_custom_text ?? '');
  const text = welcomeText ?? storedWelcome;

  function saveWelcome(event: FormEvent) {
    event.preventDefault();
    if (welcomeText === null) return;
    void welcome.run(() => api.patch('/realm', { welcome_message_custom_text: welcomeText })).then((done) => done && setWelcomeText(null));
  }
  const testWelcome = () =>
    void welcome.run(() => api.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: text }), t('Welcome Bot sent you a test message.'));

  return (
    <>
      <ReadOnlyNote state={state} />
      <form aria-label={t('Organization settings')} onSubmit={(event) => event.preventDefault()}>
        <h2>{t('Organization settings')}</h2>
        <label htmlFor="realm-language">{t('Language for automated messages and invitation emails')}</label>
        <select id="realm-language" value={String(state.realm.default_language ?? 'en')} disabled={readOnly} onChange={(event) => void change({ default_language: event.target.value })}>
          {LANGUAGES.map((language) => (
            <option key={language.code} value={language.code}>
              {language.name}
            </option>
          ))}
        </select>
        <label htmlFor="realm-video-chat">{t('Call provider')}</label>
        <select
          id="realm-video-chat"
          value={String(state.realm.video_chat_provider ?? 1)}
          disabled={readOnly}
          onChange={(event) => void change({ video_chat_provider: Number(event.target.value) })}
        >
          <option value="0">{t('None')}</option>
          <option value="1">{t('Jitsi Meet')}</option>
        </select>
        <label className="choice">
          <input
            type="checkbox"
            checked={state.realm.enable_read_receipts === true}
            disabled={readOnly}
            onChange={(event) => void change({ enable_read_receipts: event.target.checked })}
          />{' '}
          {t('Enable read receipts')}
        </label>
        <label htmlFor="realm-moderation-channel">{t('Moderation request channel')}</label>
        <select
          id="realm-moderation-channel"
          value={String(moderationChannel)}
          disabled={readOnly}
          onChange={(event) => void change({ moderation_request_channel_id: Number(event.target.value) })}
        >
          <option value="-1">{t('Disabled')}</option>
          {moderationChannel > 0 && !privateChannels.some((channel) => channel.stream_id === moderationChannel) && (
            <option value={moderationChannel}>{t('Channel {{id}}', { id: moderationChannel })}</option>
          )}
          {privateChannels.map((channel) => (
            <option key={channel.stream_id} value={channel.stream_id}>
              #{channel.name}
            </option>
          ))}
        </select>
        <Outcome outcome={outcome} />
      </form>
      <form aria-label={t('Welcome message')} onSubmit={saveWelcome}>
        <h2>{t('Welcome message')}</h2>
        <label htmlFor="realm-welcome-text">{t('Custom message Welcome Bot sends new users')}</label>
        <textarea id="realm-welcome-text" rows={4} maxLength={8000} value={text} disabled={readOnly} onChange={(event) => setWelcomeText(event.target.value)} />
        {!readOnly && (
          <>
            <button type="submit" disabled={welcomeText === null}>
              {t('Save welcome message')}
            </button>{' '}
            <button type="button" className="secondary" disabled={text.trim() === ''} onClick={testWelcome}>
              {t('Send me a test message')}
            </button>
          </>
        )}
        <Outcome outcome={welcome.outcome} />
      </form>
    </>
  );
}

/** The time limits Zulip's settings offer, in seconds ("unlimited": any time). */
const TIME_LIMITS: [string, string][] = [
  ['unlimited', 'Any time'],
  ['120', '2 minutes'],
  ['600', '10 minutes'],
  ['3600', '1 hour'],
  ['86400', '1 day'],
  ['604800', '1 week'],
];

/** A message time limit as a combobox; a stored value not offered shows as itself in seconds. */
function TimeLimitSelect({ state, name, label }: { state: ChatState; name: string; label: string }) {
  const { t } = useTranslation();
  const { outcome, change } = useRealmChange();
  const stored = state.realm[name];
  const value = stored === null || stored === undefined ? 'unlimited' : String(stored);
  const names: Record<string, string> = {
    'Any time': t('Any time'),
    '2 minutes': t('2 minutes'),
    '10 minutes': t('10 minutes'),
    '1 hour': t('1 hour'),
    '1 day': t('1 day'),
    '1 week': t('1 week'),
  };
  return (
    <>
      <label htmlFor={`realm-${name}`}>{label}</label>
      <select
        id={`realm-${name}`}
        value={value}
        disabled={!state.me.isAdmin}
        // A JSON parameter: "unlimited" goes quoted, a number as it is.
        onChange={(event) => void change({ [name]: event.target.value === 'unlimited' ? '"unlimited"' : Number(event.target.value) })}
      >
        {!TIME_LIMITS.some(([seconds]) => seconds === value) && <option value={value}>{t('{{seconds}} seconds', { seconds: Number(value) })}</option>}
        {TIME_LIMITS.map(([seconds, text]) => (
          <option key={seconds} value={seconds}>
            {names[text]}
          </option>
        ))}
      </select>
      <Outcome outcome={outcome} />
    </>
  );
}

/** One group-valued permission: a combobox of the system groups, saved as `{new: group}`. */
function PermissionSelect({ state, name, label }: { state: ChatState; name: string; label: string }) {
  const { outcome, change } = useRealmChange();
  return (
    <div className="permission">
      <span aria-hidden="true">{label}</span>{' '}
      {state.me.isAdmin ? (
        <GroupSettingSelect state={state} label={label} value={state.realm[name] as GroupSettingValue | undefined} onChange={(id) => void change({ [name]: { new: id } })} />
      ) : (
        <ReadOnlyGroup state={state} label={label} value={state.realm[name] as GroupSettingValue | undefined} />
      )}
      <Outcome outcome={outcome} />
    </div>
  );
}

/** A member's view of a permission: the same combobox, disabled. */
function ReadOnlyGroup({ state, label, value }: { state: ChatState; label: string; value: GroupSettingValue | undefined }) {
  return (
    <fieldset disabled className="inline">
      <GroupSettingSelect state={state} label={label} value={value} onChange={() => undefined} />
    </fieldset>
  );
}

/** The allowed email domains: the list, "Restrict to these domains", adding and removing (owners). */
function AllowedDomains({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [domain, setDomain] = useState('');
  const [subdomains, setSubdomains] = useState(false);
  const readOnly = !state.me.isAdmin;

  function add(event: FormEvent) {
    event.preventDefault();
    void run(() => api.post('/realm/domains', { domain: domain.trim(), allow_subdomains: subdomains })).then((done) => {
      if (!done) return;
      setDomain('');
      setSubdomains(false);
    });
  }

  return (
    <section aria-label={t('Allowed domains')}>
      <h2>{t('Allowed domains')}</h2>
      <label className="choice">
        <input
          type="checkbox"
          checked={state.realm.emails_restricted_to_domains === true}
          disabled={readOnly}
          onChange={(event) => void run(() => api.patch('/realm', { emails_restricted_to_domains: event.target.checked }))}
        />{' '}
        {t('Restrict to these domains')}
      </label>
      {state.realmDomains.length === 0 ? (
        <p className="muted">{t('There are no allowed domains.')}</p>
      ) : (
        <table aria-label={t('Allowed domains')}>
          <thead>
            <tr>
              <th scope="col">{t('Domain')}</th>
              <th scope="col">{t('Allow subdomains')}</th>
              <th scope="col">{t('Actions')}</th>
            </tr>
          </thead>
          <tbody>
            {state.realmDomains.map((d) => (
              <tr key={d.domain}>
                <th scope="row">{d.domain}</th>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t('Allow subdomains of {{domain}}', { domain: d.domain })}
                    checked={d.allow_subdomains}
                    disabled={readOnly}
                    onChange={(event) =>
                      void run(() => api.patch(`/realm/domains/${encodeURIComponent(d.domain)}`, { allow_subdomains: event.target.checked }))
                    }
                  />
                </td>
                <td>
                  {!readOnly && (
                    <button type="button" className="secondary small" onClick={() => void run(() => api.delete(`/realm/domains/${encodeURIComponent(d.domain)}`))}>
                      {t('Remove {{domain}}', { domain: d.domain })}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!readOnly && (
        <form aria-label={t('Add a domain')} onSubmit={add}>
          <label htmlFor="realm-domain">{t('Domain')}</label>
          <input id="realm-domain" value={domain} onChange={(event) => setDomain(event.target.value)} required />
          <label className="choice">
            <input type="checkbox" checked={subdomains} onChange={(event) => setSubdomains(event.target.checked)} /> {t('Allow subdomains')}
          </label>
          <button type="submit" disabled={domain.trim() === ''}>
            {t('Add domain')}
          </button>
        </form>
      )}
      <Outcome outcome={outcome} />
    </section>
  );
}

/** #organization/organization-permissions: who may do what, message editing limits, allowed domains. */
export function OrganizationPermissions({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, change } = useRealmChange();
  const readOnly = !state.me.isAdmin;
  const permissions: [string, string][] = [
    ['can_invite_users_group', t('Who can send email invitations to new users')],
    ['create_multiuse_invite_group', t('Who can create reusable invitation links')],
    ['can_create_public_channel_group', t('Who can create public channels')],
    ['can_create_private_channel_group', t('Who can create private channels')],
    ['can_create_web_public_channel_group', t('Who can create web-public channels')],
    ['can_add_subscribers_group', t('Who can subscribe others to channels')],
    ['can_add_custom_emoji_group', t('Who can add custom emoji')],
    ['can_create_bots_group', t('Who can create any bot')],
    ['can_create_write_only_bots_group', t('Who can create bots that send messages into Zulip')],
    ['can_create_groups', t('Who can create user groups')],
    ['can_manage_all_groups', t('Who can administer all user groups')],
    ['can_mention_many_users_group', t('Who can notify a large number of users with a wildcard mention')],
    ['direct_message_permission_group', t('Who can authorize a direct message conversation')],
    ['direct_message_initiator_group', t('Who can start a direct message conversation')],
    ['can_delete_any_message_group', t('Who can delete any message')],
    ['can_delete_own_message_group', t('Who can delete their own messages')],
    ['can_move_messages_between_topics_group', t('Who can move messages to another topic')],
    ['can_move_messages_between_channels_group', t('Who can move messages to another channel')],
    ['can_resolve_topics_group', t('Who can resolve topics')],
  ];
  return (
    <>
      <ReadOnlyNote state={state} />
      <section aria-label={t('Permissions')}>
        <h2>{t('Permissions')}</h2>
        {permissions.map(([name, label]) => (
          <PermissionSelect key={name} state={state} name={name} label={label} />
        ))}
      </section>
      <section aria-label={t('Message editing')}>
        <h2>{t('Message editing')}</h2>
        <label className="choice">
          <input
            type="checkbox"
            checked={state.realm.allow_message_editing !== false}
            disabled={readOnly}
            onChange={(event) => void change({ allow_message_editing: event.target.checked })}
          />{' '}
          {t('Allow message editing')}
        </label>
        <Outcome outcome={outcome} />
        <TimeLimitSelect state={state} name="message_content_edit_limit_seconds" label={t('Time limit for editing messages')} />
        <TimeLimitSelect state={state} name="message_content_delete_limit_seconds" label={t('Time limit for deleting messages')} />
      </section>
      <AllowedDomains state={state} />
    </>
  );
}
