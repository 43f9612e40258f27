import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { ok, typedApi } from '../api/typed-client';
import type { ProfileField, User } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { MessageContent } from '../messages/MessageContent';
import { Avatar } from './Avatar';

/** A profile field's value as a profile shows it: a Users field's people by name, a choice by its text, others as the server rendered them. */
export function ProfileValue({ field, value, state }: { field: ProfileField; value: { value: string; rendered_value?: string }; state: ChatState }) {
  if (field.type === 6) {
    const ids = parseJson<number[]>(value.value) ?? [];
    return <>{ids.map((id) => state.users[id]?.full_name ?? id).join(', ')}</>;
  }
  if (field.type === 3) {
    const options = parseJson<Record<string, { text: string }>>(field.field_data) ?? {};
    return <>{options[value.value]?.text ?? value.value}</>;
  }
  if (field.type === 5 && /^https?:\/\//.test(value.value)) {
    return (
      <a href={value.value} target="_blank" rel="noopener noreferrer">
        {value.value}
      </a>
    );
  }
  if (value.rendered_value !== undefined) return <MessageContent html={value.rendered_value} />;
  return <>{value.value}</>;
}

export function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/**
 * A person's card (Zulip's user card popover, opened from a message's sender): avatar, name,
 * email, custom profile fields, and "Mute this user" / "Unmute this user" for anyone but me.
 */
export function UserCard({ user, state, onClose }: { user: User; state: ChatState; onClose: () => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const me = user.user_id === state.me.user_id;
  const muted = state.mutedUsers[user.user_id] !== undefined;
  const fields = state.profileFields.filter((field) => user.profile_data?.[field.id] !== undefined && user.profile_data[field.id].value !== '');
  function toggleMute() {
    setError(null);
    const call = muted
      ? typedApi.DELETE('/users/me/muted_users/{muted_user_id}', { params: { path: { muted_user_id: user.user_id } } })
      : typedApi.POST('/users/me/muted_users/{muted_user_id}', { params: { path: { muted_user_id: user.user_id } } });
    ok(call).then(onClose, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : t('Something went wrong. Try again.')));
  }
  return (
    <div className="panel-dialog user-card" role="dialog" aria-label={user.full_name} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <div className="row">
        <Avatar user={user} size={48} />
        <div>
          <strong>{user.full_name}</strong>
          <div className="muted">{user.delivery_email ?? user.email}</div>
        </div>
      </div>
      {fields.length > 0 && (
        <dl aria-label={t('Profile fields')}>
          {fields.map((field) => (
            <div key={field.id}>
              <dt>{field.name}</dt>
              <dd>
                <ProfileValue field={field} value={user.profile_data![field.id]} state={state} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="buttons">
        {!me && !user.is_bot && (
          <button type="button" className="secondary" onClick={toggleMute}>
            {muted ? t('Unmute this user') : t('Mute this user')}
          </button>
        )}
        <button type="button" className="secondary" onClick={onClose}>
          {t('Close')}
        </button>
      </div>
    </div>
  );
}
