import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { Invite } from '../api/types';
import { mayCreateInviteLinks, mayInvite, type ChatState } from '../events/chat-state';
import { INVITES } from '../events/dispatch';
import { Outcome, useOutcome } from './outcome';

/** The roles an invitation may give, as the caller may give them (owners by owners; administrators and moderators by administrators). */
function inviteRoles(state: ChatState, t: TFunction): [number, string][] {
  const roles: [number, string][] = [
    [600, t('Guests')],
    [400, t('Members')],
  ];
  if (state.me.isAdmin) roles.push([300, t('Moderators')], [200, t('Administrators')]);
  if (state.me.isOwner) roles.push([100, t('Owners')]);
  return roles;
}

const roleName = (role: number, t: TFunction) =>
  ({ 100: t('Owner'), 200: t('Administrator'), 300: t('Moderator'), 400: t('Member'), 600: t('Guest') })[role] ?? '';

/** Zulip's invitation lifetimes, in minutes (null: never expires); 10 days is its default. */
const EXPIRIES: [string, number | null, (t: TFunction) => string][] = [
  ['1d', 1440, (t) => t('1 day')],
  ['3d', 3 * 1440, (t) => t('3 days')],
  ['10d', 10 * 1440, (t) => t('10 days')],
  ['30d', 30 * 1440, (t) => t('30 days')],
  ['never', null, (t) => t('Never expires')],
];

/**
 * "Invite users to organization" (Zulip's invite dialog): by email (POST /invites), or a reusable
 * link to copy (POST /invites/multiuse) for those who may create one; the role, the channels
 * (or the organization's default channels), user groups and how long it lasts.
 */
export function InviteDialog({ state, onClose }: { state: ChatState; onClose: () => void }) {
  const { t } = useTranslation();
  const links = mayCreateInviteLinks(state);
  const [mode, setMode] = useState<'email' | 'link'>('email');
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState(400);
  const [expiry, setExpiry] = useState('10d');
  const [defaults, setDefaults] = useState(true);
  const [channels, setChannels] = useState<number[]>([]);
  const [groups, setGroups] = useState<number[]>([]);
  const [link, setLink] = useState<string | null>(null);
  const { outcome, run } = useOutcome();
  const toggle = (list: number[], id: number) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  const userGroups = state.groups.filter((group) => !group.is_system_group).sort((a, b) => a.name.localeCompare(b.name));

  function submit(event: FormEvent) {
    event.preventDefault();
    const common = {
      invite_as: role,
      invite_expires_in_minutes: EXPIRIES.find(([key]) => key === expiry)?.[1] ?? null,
      stream_ids: defaults ? [] : channels,
      group_ids: groups,
      include_realm_default_subscriptions: defaults,
    };
    if (mode === 'email') {
      void run(() => ok(typedApi.POST('/invites', { body: { ...common, invitee_emails: emails } })), t('Users invited successfully.')).then((done) => done && setEmails(''));
    } else {
      void run(async () => setLink((await ok(typedApi.POST('/invites/multiuse', { body: common }))).invite_link), t('Link created: share it with those you invite.'));
    }
  }

  return (
    <form className="panel-dialog invite" role="dialog" aria-label={t('Invite users to organization')} onSubmit={submit} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <h3>{t('Invite users to organization')}</h3>
      {links && (
        <fieldset>
          <legend>{t('How to invite')}</legend>
          <label className="choice">
            <input type="radio" name="invite-mode" checked={mode === 'email'} onChange={() => setMode('email')} /> {t('Send invitation emails')}
          </label>
          <label className="choice">
            <input type="radio" name="invite-mode" checked={mode === 'link'} onChange={() => setMode('link')} /> {t('Generate invite link')}
          </label>
        </fieldset>
      )}
      {mode === 'email' && (
        <>
          <label htmlFor="invite-emails">{t('Emails (one on each line or separated by commas)')}</label>
          <textarea id="invite-emails" rows={3} value={emails} onChange={(event) => setEmails(event.target.value)} />
        </>
      )}
      <label htmlFor="invite-expiry">{t('Invitation expires after')}</label>
      <select id="invite-expiry" value={expiry} onChange={(event) => setExpiry(event.target.value)}>
        {EXPIRIES.map(([key, , name]) => (
          <option key={key} value={key}>
            {name(t)}
          </option>
        ))}
      </select>
      <label htmlFor="invite-role">{t('Users join as')}</label>
      <select id="invite-role" value={role} onChange={(event) => setRole(Number(event.target.value))}>
        {inviteRoles(state, t).map(([value, name]) => (
          <option key={value} value={value}>
            {name}
          </option>
        ))}
      </select>
      <fieldset>
        <legend>{t('Channels they should join')}</legend>
        <label className="choice">
          <input type="checkbox" checked={defaults} onChange={(event) => setDefaults(event.target.checked)} /> {t('Default channels for this organization')}
        </label>
        {!defaults &&
          state.subscriptions.map((sub) => (
            <label key={sub.stream_id} className="choice">
              <input type="checkbox" checked={channels.includes(sub.stream_id)} onChange={() => setChannels((list) => toggle(list, sub.stream_id))} /> #{sub.name}
            </label>
          ))}
      </fieldset>
      {userGroups.length > 0 && (
        <fieldset>
          <legend>{t('User groups they should join')}</legend>
          {userGroups.map((group) => (
            <label key={group.id} className="choice">
              <input type="checkbox" checked={groups.includes(group.id)} onChange={() => setGroups((list) => toggle(list, group.id))} /> {group.name}
            </label>
          ))}
        </fieldset>
      )}
      {link && (
        <>
          <label htmlFor="invite-link">{t('Invitation link')}</label>
          <div className="row">
            <input id="invite-link" readOnly value={link} onFocus={(event) => event.target.select()} />
            <button type="button" className="secondary small" onClick={() => void navigator.clipboard?.writeText(link).catch(() => undefined)}>
              {t('Copy link')}
            </button>
          </div>
        </>
      )}
      <Outcome outcome={outcome} />
      <div className="buttons">
        <button type="submit" disabled={mode === 'email' && emails.trim() === ''}>
          {mode === 'email' ? t('Invite') : t('Create link')}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t('Close')}
        </button>
      </div>
    </form>
  );
}

/** One pending invitation's row: who or which link, by whom, when, until when, as what; "Revoke" and (by email) "Resend". */
function InviteRow({ invite, state, run }: { invite: Invite; state: ChatState; run: (work: () => Promise<unknown>, done?: string) => Promise<boolean> }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const what = invite.is_multiuse ? (invite.link_url ?? '') : (invite.email ?? '');
  const path = { invite_id: invite.id };
  const revoke = () =>
    invite.is_multiuse ? ok(typedApi.DELETE('/invites/multiuse/{invite_id}', { params: { path } })) : ok(typedApi.DELETE('/invites/{invite_id}', { params: { path } }));
  return (
    <tr>
      <th scope="row">{invite.is_multiuse ? <code className="link">{what}</code> : what}</th>
      <td>{state.users[invite.invited_by_user_id]?.full_name ?? ''}</td>
      <td>{new Date(invite.invited * 1000).toLocaleString()}</td>
      <td>{invite.expiry_date === null ? t('Never expires') : new Date(invite.expiry_date * 1000).toLocaleString()}</td>
      <td>{roleName(invite.invited_as, t)}</td>
      <td className="row">
        {/* The links are long: the buttons say what they do, their names say to what. */}
        {confirming ? (
          <>
            <button type="button" className="danger small" aria-label={t('Confirm: revoke invitation {{what}}', { what })} onClick={() => void run(revoke, t('Invitation revoked.'))}>
              {t('Confirm')}
            </button>
            <button type="button" className="secondary small" onClick={() => setConfirming(false)}>
              {t('Cancel')}
            </button>
          </>
        ) : (
          <button type="button" className="secondary small" aria-label={t('Revoke invitation {{what}}', { what })} onClick={() => setConfirming(true)}>
            {t('Revoke')}
          </button>
        )}
        {!invite.is_multiuse && (
          <button type="button" className="secondary small" aria-label={t('Resend invitation {{what}}', { what })} onClick={() => void run(() => ok(typedApi.POST('/invites/{invite_id}/resend', { params: { path } })), t('Invitation sent again.'))}>
            {t('Resend')}
          </button>
        )}
      </td>
    </tr>
  );
}

/**
 * Invitations (#organization/invites): "Invite users" and the pending invitations and links the
 * caller may manage (their own; an administrator's, everyone's), each revoked or resent; the list
 * is read again on every `invites_changed` event.
 */
export function AdminInvites({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const [inviting, setInviting] = useState(false);
  const { outcome, run } = useOutcome();
  const invites = useQuery({
    queryKey: INVITES,
    queryFn: async ({ signal }) => (await ok(typedApi.GET('/invites', { signal }))).invites,
    staleTime: Infinity,
  });
  const list = [...(invites.data ?? [])].sort((a, b) => b.invited - a.invited);
  return (
    <>
      <div className="row">
        <h2>{t('Invitations')}</h2>
        {mayInvite(state) && (
          <button type="button" aria-expanded={inviting} onClick={() => setInviting(!inviting)}>
            {t('Invite users')}
          </button>
        )}
      </div>
      {inviting && <InviteDialog state={state} onClose={() => setInviting(false)} />}
      <Outcome outcome={outcome} />
      {invites.isError && (
        <p role="alert" className="error">
          {invites.error instanceof ApiError ? invites.error.message : t('Something went wrong. Try again.')}
        </p>
      )}
      <table aria-label={t('Pending invitations')}>
        <thead>
          <tr>
            <th scope="col">{t('Email or link')}</th>
            <th scope="col">{t('Invited by')}</th>
            <th scope="col">{t('Invited at')}</th>
            <th scope="col">{t('Expires at')}</th>
            <th scope="col">{t('Role')}</th>
            <th scope="col">{t('Actions')}</th>
          </tr>
        </thead>
        <tbody>
          {list.map((invite) => (
            <InviteRow key={`${invite.is_multiuse ? 'link' : 'email'}-${invite.id}`} invite={invite} state={state} run={run} />
          ))}
        </tbody>
      </table>
      {invites.isSuccess && list.length === 0 && <p className="muted">{t('No pending invitations.')}</p>}
    </>
  );
}
