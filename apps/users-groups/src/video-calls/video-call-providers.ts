import type { AppConfig } from '@teamchat/platform';

type VideoConfig = Pick<AppConfig, 'JITSI_SERVER_URL' | 'BIG_BLUE_BUTTON_URL' | 'BIG_BLUE_BUTTON_SECRET'>;

/** Zulip's Realm.VIDEO_CHAT_PROVIDERS this server can offer (Zoom needs an OAuth app it does not have). */
const PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
  big_blue_button: { name: 'BigBlueButton', id: 4 },
} as const;

export const bigBlueButtonConfigured = (config: VideoConfig): boolean => config.BIG_BLUE_BUTTON_URL !== '' && config.BIG_BLUE_BUTTON_SECRET !== '';

/**
 * The video call keys of POST /register's `realm` (zerver/lib/events.py, Realm.get_enabled_video_chat_providers):
 * the providers configured (BigBlueButton only with its URL and secret), the server's Jitsi Meet
 * URL without a trailing slash (null when none), and the organization's own, else the server's.
 */
export function videoCallState(realm: { jitsiServerUrl: string | null }, config: VideoConfig): Record<string, unknown> {
  const serverJitsi = config.JITSI_SERVER_URL === '' ? null : config.JITSI_SERVER_URL.replace(/\/+$/, '');
  const { big_blue_button: bigBlueButton, ...always } = PROVIDERS;
  return {
    realm_available_video_chat_providers: bigBlueButtonConfigured(config) ? { ...always, big_blue_button: bigBlueButton } : always,
    server_jitsi_server_url: serverJitsi,
    jitsi_server_url: realm.jitsiServerUrl ?? serverJitsi,
  };
}
