import { useTranslation } from 'react-i18next';
import { ok, typedApi } from '../api/typed-client';
import type { Subscription } from '../api/types';
import type { ChatState } from '../events/chat-state';
import { Outcome, useOutcome } from './outcome';

type Property = 'color' | 'is_muted' | 'pin_to_top' | 'desktop_notifications' | 'audible_notifications' | 'push_notifications' | 'email_notifications';

/**
 * Each channel's settings (its subscription's properties): color, mute, pin to top and its
 * notifications, saved as they change through POST /users/me/subscriptions/properties; the
 * subscription events show the change (in the sidebar too).
 */
export function ChannelSettings({ state }: { state: ChatState }) {
  const { t } = useTranslation();
  const { outcome, run } = useOutcome();
  const set = (sub: Subscription, property: Property, value: string | boolean) =>
    void run(() => ok(typedApi.POST('/users/me/subscriptions/properties', { body: { subscription_data: [{ stream_id: sub.stream_id, property, value }] } })));
  const toggles: [Property, string][] = [
    ['is_muted', t('Mute')],
    ['pin_to_top', t('Pin to top')],
    ['desktop_notifications', t('Desktop notifications')],
    ['audible_notifications', t('Sounds')],
    ['push_notifications', t('Mobile notifications')],
    ['email_notifications', t('Emails')],
  ];
  // A notification property left unset (null) follows the personal default for channels.
  const defaults: Partial<Record<Property, string>> = {
    desktop_notifications: 'enable_stream_desktop_notifications',
    audible_notifications: 'enable_stream_audible_notifications',
    push_notifications: 'enable_stream_push_notifications',
    email_notifications: 'enable_stream_email_notifications',
  };
  const checked = (sub: Subscription, property: Property) => {
    const own = sub[property as keyof Subscription];
    if (typeof own === 'boolean') return own;
    const fallback = defaults[property];
    return fallback ? state.settings[fallback] === true : false;
  };
  return (
    <section aria-label={t('Channel settings')} className="channel-settings">
      <h2>{t('Channel settings')}</h2>
      {state.subscriptions.map((sub) => (
        <fieldset key={sub.stream_id}>
          <legend>#{sub.name}</legend>
          <label className="choice">
            <input type="color" aria-label={t('Color of #{{channel}}', { channel: sub.name })} value={sub.color} onChange={(event) => set(sub, 'color', event.target.value)} />{' '}
            {t('Color')}
          </label>
          {toggles.map(([property, label]) => (
            <label key={property} className="choice">
              <input
                type="checkbox"
                aria-label={t('{{setting}} for #{{channel}}', { setting: label, channel: sub.name })}
                checked={checked(sub, property)}
                onChange={(event) => set(sub, property, event.target.checked)}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
      ))}
      <Outcome outcome={outcome} />
    </section>
  );
}
