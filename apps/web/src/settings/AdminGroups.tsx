import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ok, typedApi } from '../api/typed-client';
import type { GroupSettingValue, UserGroup } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { GroupSettingSelect } from './group-settings';
import { Outcome, useOutcome } from './outcome';

/** The group permission settings the page offers (Zulip's names). */
type GroupPermission = 'can_mention_group' | 'can_manage_group' | 'can_add_members_group' | 'can_join_group';

/**
 * The organization's user groups (#organization/groups): create one, then for each its members
 * (add, remove) and permission settings, all live through the user_group events.
 */
export function AdminGroups({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { outcome, run } = useOutcome();
  const groups = state.groups.filter((group) => !group.is_system_group).sort((a, b) => a.name.localeCompare(b.name));

  function create(event: FormEvent) {
    event.preventDefault();
    void run(() => ok(typedApi.POST('/user_groups/create', { body: { name: name.trim(), description: description.trim(), members: [state.me.user_id] } }))).then((done) => {
      if (done) {
        setName('');
        setDescription('');
      }
    });
  }

  return (
    <>
      <form aria-label={t('Create user group')} onSubmit={create}>
        <h2>{t('Create user group')}</h2>
        <label htmlFor="group-name">{t('Group name')}</label>
        <input id="group-name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} />
        <label htmlFor="group-description">{t('Description')}</label>
        <input id="group-description" value={description} onChange={(event) => setDescription(event.target.value)} maxLength={1024} />
        <button type="submit" disabled={name.trim() === ''}>
          {t('Create group')}
        </button>
        <Outcome outcome={outcome} />
      </form>
      {groups.map((group) => (
        <GroupCard key={group.id} group={group} state={state} />
      ))}
    </>
  );
}

function GroupCard({ group, state }: { group: UserGroup; state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const [adding, setAdding] = useState('');
  const members = group.members.map((id) => state.users[id]).filter((user) => user !== undefined);
  const others = Object.values(state.users)
    .filter((user) => user.is_active !== false && !group.members.includes(user.user_id))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  const permissions: [GroupPermission, string][] = [
    ['can_mention_group', t('Who can mention this group')],
    ['can_manage_group', t('Who can manage this group')],
    ['can_add_members_group', t('Who can add members to this group')],
    ['can_join_group', t('Who can join this group')],
  ];
  const setting = (name: GroupPermission): GroupSettingValue => group[name];
  return (
    <section className="card" aria-label={t('Group {{name}}', { name: group.name })}>
      <h2>{group.name}</h2>
      {group.description && <p className="muted">{group.description}</p>}
      <h3>{t('Members')}</h3>
      <ul aria-label={t('Members of {{name}}', { name: group.name })}>
        {members.map((user) => (
          <li key={user.user_id}>
            {user.full_name}{' '}
            <button type="button" className="secondary small" onClick={() => void run(() => ok(typedApi.POST('/user_groups/{user_group_id}/members', { params: { path: { user_group_id: group.id } }, body: { delete: [user.user_id] } })))}>
              {t('Remove {{name}} from {{group}}', { name: user.full_name, group: group.name })}
            </button>
          </li>
        ))}
      </ul>
      <div className="row">
        <select aria-label={t('Person to add to {{group}}', { group: group.name })} value={adding} onChange={(event) => setAdding(event.target.value)}>
          <option value="">{t('Choose a person')}</option>
          {others.map((user) => (
            <option key={user.user_id} value={user.user_id}>
              {user.full_name}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={adding === ''}
          onClick={() => void run(() => ok(typedApi.POST('/user_groups/{user_group_id}/members', { params: { path: { user_group_id: group.id } }, body: { add: [Number(adding)] } }))).then((done) => done && setAdding(''))}
        >
          {t('Add member')}
        </button>
      </div>
      <h3>{t('Permissions')}</h3>
      {permissions.map(([name, label]) => (
        <label key={name} className="setting">
          <span>{label}</span>
          <GroupSettingSelect
            state={state}
            label={t('{{setting}} ({{group}})', { setting: label, group: group.name })}
            value={setting(name)}
            onChange={(id) => void run(() => ok(typedApi.PATCH('/user_groups/{user_group_id}', { params: { path: { user_group_id: group.id } }, body: { [name]: { new: id } } })))}
          />
        </label>
      ))}
      <Outcome outcome={outcome} />
    </section>
  );
}
