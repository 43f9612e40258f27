import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { User } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { t as translate } from '../i18n/i18n';
import { AdminChannels } from './AdminChannels';
import { AdminDefaults } from './AdminDefaults';
import { AdminEmoji } from './AdminEmoji';
import { AdminExport } from './AdminExport';
import { AdminInvites } from './AdminInvites';
import { OrganizationGeneralSettings, OrganizationPermissions, OrganizationProfile } from './OrganizationSettings';
import { AdminGroups } from './AdminGroups';
import { AdminLinkifiers, AdminPlaygrounds } from './AdminLinkifiers';
import { AdminProfileFields } from './AdminProfileFields';

/** Zulip's roles, most powerful first. */
const ROLES: [number, () => string][] = [
  [100, () => translate('Owner')],
  [200, () => translate('Administrator')],
  [300, () => translate('Moderator')],
  [400, () => translate('Member')],
  [600, () => translate('Guest')],
];

/** One person's row: their role (a combobox) and "Deactivate" (with a confirmation). */
function UserRow({ user, state, onError }: { user: User; state: ChatState; onError: (text: string | null) => void }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const act = (work: () => Promise<unknown>) => {
    onError(null);
    work().catch((failure: unknown) => onError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.')));
  };
  const me = user.user_id === state.me.user_id;
  return (
    <tr>
      <th scope="row">{user.full_name}</th>
      <td>{user.email}</td>
      <td>
        <select
          aria-label={t('Role of {{name}}', { name: user.full_name })}
          value={user.role ?? 400}
          disabled={me}
          onChange={(event) => act(() => ok(typedApi.PATCH('/users/{user_id}', { params: { path: { user_id: user.user_id } }, body: { role: Number(event.target.value) } })))}
        >
          {ROLES.map(([value, name]) => (
            <option key={value} value={value}>
              {name()}
            </option>
          ))}
        </select>
      </td>
      <td>
        {me ? null : confirming ? (
          <>
            <button type="button" className="danger" onClick={() => act(() => ok(typedApi.DELETE('/users/{user_id}', { params: { path: { user_id: user.user_id } } })))}>
              {t('Confirm deactivation of {{name}}', { name: user.full_name })}
            </button>{' '}
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              {t('Cancel')}
            </button>
          </>
        ) : (
          <button type="button" className="secondary" onClick={() => setConfirming(true)}>
            {t('Deactivate {{name}}', { name: user.full_name })}
          </button>
        )}
      </td>
    </tr>
  );
}

/** The organization's own settings (Zulip's names for them), which everyone may look at: see OrganizationSettings. */
const ORGANIZATION_SECTIONS = ['organization-profile', 'organization-settings', 'organization-permissions'] as const;
/** The administration pages: #organization/organization-profile, …/organization-settings, …/organization-permissions, …/users, …/groups, …/channels, …/defaults, …/emoji, …/linkifiers, …/playgrounds, …/profile-fields, …/invites, …/data-export. */
const SECTIONS = [...ORGANIZATION_SECTIONS, 'users', 'groups', 'channels', 'defaults', 'emoji', 'linkifiers', 'playgrounds', 'profile-fields', 'invites', 'data-export'] as const;
/** What members may open: the organization's settings (read-only), custom emoji (as in Zulip, members may add them) and their own invitations (not guests). */
const MEMBER_SECTIONS: readonly Section[] = [...ORGANIZATION_SECTIONS, 'emoji', 'invites'];
type Section = (typeof SECTIONS)[number];

/**
 * The organization's administration (#organization/<section>), for administrators: users (role,
 * deactivation), user groups, channels and folders, defaults for new users, custom emoji,
 * linkifiers, code playgrounds, custom profile fields, invitations and data exports, under a
 * navigation "Organization". Everyone sees the organization's profile, settings and permissions
 * (read-only, as Zulip shows them) and the custom emoji (as in Zulip, members may add them), and
 * members their own invitations; anyone else is told the other sections are not theirs (and the
 * server refuses them the same calls).
 */
export function AdminPage({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const asked = window.location.hash.split('/')[1] as Section | undefined;
  const section: Section = asked && SECTIONS.includes(asked) ? asked : 'users';
  const names: Record<Section, string> = {
    users: t('Users'),
    groups: t('User groups'),
    channels: t('Channels'),
    defaults: t('Defaults for new users'),
    emoji: t('Custom emoji'),
    linkifiers: t('Linkifiers'),
    playgrounds: t('Code playgrounds'),
    'profile-fields': t('Custom profile fields'),
    invites: t('Invitations'),
    'organization-profile': t('Organization profile'),
    'organization-settings': t('Organization settings'),
    'organization-permissions': t('Organization permissions'),
    'data-export': t('Data export'),
  };
  if (!state.me.isAdmin) {
    const mine = MEMBER_SECTIONS.filter((name) => name !== 'invites' || !state.me.isGuest);
    return (
      <main className="view page">
        <h1>{t('Organization settings')}</h1>
        <nav aria-label={t('Organization')} className="tabs">
          {mine.map((name) => (
            <a key={name} href={`#organization/${name}`} aria-current={section === name ? 'page' : undefined}>
              {names[name]}
            </a>
          ))}
        </nav>
        {mine.includes(section) ? (
          <div className="settings">
            {section === 'emoji' && <AdminEmoji state={state} />}
            {section === 'invites' && <AdminInvites state={state} />}
            {section === 'organization-profile' && <OrganizationProfile state={state} />}
            {section === 'organization-settings' && <OrganizationGeneralSettings state={state} />}
            {section === 'organization-permissions' && <OrganizationPermissions state={state} />}
          </div>
        ) : (
          <p role="alert" className="settings">
            {t('Only organization administrators can manage users.')}
          </p>
        )}
      </main>
    );
  }
  const users = Object.values(state.users)
    .filter((user) => user.is_active !== false && !user.is_bot)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <main className="view page">
      <h1>{t('Organization settings')}</h1>
      <nav aria-label={t('Organization')} className="tabs">
        {SECTIONS.map((name) => (
          <a key={name} href={`#organization/${name}`} aria-current={name === section ? 'page' : undefined}>
            {names[name]}
          </a>
        ))}
      </nav>
      <div className="settings">
        {section === 'groups' && <AdminGroups state={state} />}
        {section === 'channels' && <AdminChannels state={state} />}
        {section === 'defaults' && <AdminDefaults state={state} />}
        {section === 'emoji' && <AdminEmoji state={state} />}
        {section === 'linkifiers' && <AdminLinkifiers state={state} />}
        {section === 'playgrounds' && <AdminPlaygrounds state={state} />}
        {section === 'profile-fields' && <AdminProfileFields state={state} />}
        {section === 'invites' && <AdminInvites state={state} />}
        {section === 'data-export' && <AdminExport state={state} />}
        {section === 'organization-profile' && <OrganizationProfile state={state} />}
        {section === 'organization-settings' && <OrganizationGeneralSettings state={state} />}
        {section === 'organization-permissions' && <OrganizationPermissions state={state} />}
        {section === 'users' && (
          <>
            {error && (
              <p role="alert" className="error">
                {error}
              </p>
            )}
            <table aria-label={t('Users')}>
              <thead>
                <tr>
                  <th scope="col">{t('Name')}</th>
                  <th scope="col">{t('Email')}</th>
                  <th scope="col">{t('Role')}</th>
                  <th scope="col">{t('Actions')}</th>
                </tr>
              </thead>
              <tbody>
                {users.map((user) => (
                  <UserRow key={user.user_id} user={user} state={state} onError={setError} />
                ))}
              </tbody>
            </table>
          </>
        )}
      </div>
    </main>
  );
}
