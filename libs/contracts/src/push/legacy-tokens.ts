import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { emptyResponse } from '../api/api-schemas';

/**
 * The older, not end-to-end encrypted push registrations (Zulip's PushDeviceToken), which the
 * mobile app still uses: the token itself is sent to the server, which forwards it to the relay.
 */
export const addApnsDeviceToken = defineApiCommand('push', 'add_apns_device_token', {
  route: 'POST /users/me/apns_device_token',
  summary: 'Registers an APNs device token (forwarded to the push relay).',
  params: {
    /** The token the device got from APNs, in hex. */
    token: param.string(),
    /** The iOS app's bundle ID. */
    appid: param.string(),
  },
  response: emptyResponse,
});

export const removeApnsDeviceToken = defineApiCommand('push', 'remove_apns_device_token', {
  route: 'DELETE /users/me/apns_device_token',
  summary: 'Removes an APNs device token.',
  params: { token: param.string() },
  response: emptyResponse,
});

export const addAndroidRegId = defineApiCommand('push', 'add_android_reg_id', {
  route: 'POST /users/me/android_gcm_reg_id',
  summary: 'Registers an FCM registration token (forwarded to the push relay).',
  params: { token: param.string() },
  response: emptyResponse,
});

export const removeAndroidRegId = defineApiCommand('push', 'remove_android_reg_id', {
  route: 'DELETE /users/me/android_gcm_reg_id',
  summary: 'Removes an FCM registration token.',
  params: { token: param.string() },
  response: emptyResponse,
});

export const sendTestNotification = defineApiCommand('push', 'send_test_notification', {
  route: 'POST /mobile_push/test_notification',
  summary: "Sends a test notification to the caller's token-registered devices (or the one named) through the relay.",
  params: {
    /** The device's token; every device of the caller when omitted. */
    token: param.string().optional(),
  },
  response: emptyResponse,
});
