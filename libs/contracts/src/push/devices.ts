import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse } from '../api/api-schemas';

/** Where a push device's registration with the push relay stands. */
export const PUSH_DEVICE_STATUSES = ['pending', 'active', 'failed'] as const;
export type PushDeviceStatus = (typeof PUSH_DEVICE_STATUSES)[number];

/** One entry of POST /register's `push_devices` (keyed by the push account ID, as a string). */
export const pushDeviceStateSchema = apiSchema(
  'PushDeviceState',
  z.object({
    status: z.enum(PUSH_DEVICE_STATUSES),
    /** Why the registration failed (the relay's error code), else null. */
    error_code: z.string().nullable(),
  }),
);
export type PushDeviceState = z.output<typeof pushDeviceStateSchema>;

export const registerPushDeviceParams = {
  token_kind: param.oneOf(['fcm', 'apns'] as const),
  /** Chosen at random by the client; echoed in every push so it finds the matching key. */
  push_account_id: param.int(),
  /** The client's NaCl (X25519) public key, standard base64: notifications are encrypted to it. */
  push_public_key: param.string(),
  /** Which of the relay's public keys encrypted `encrypted_push_registration`. */
  bouncer_public_key: param.string(),
  /** The client's `{token, token_kind, timestamp, ios_app_id?}`, encrypted for the relay: never read here. */
  encrypted_push_registration: param.string(),
};

export const registerPushDevice = defineApiCommand('push', 'register_push_device', {
  route: 'POST /mobile_push/register',
  summary: 'Registers an E2EE push device with the push relay; its status arrives in `push_device` events.',
  params: registerPushDeviceParams,
  response: emptyResponse,
});

export const sendE2eeTestNotificationParams = {
  /** The device to notify; every active device of the caller when omitted. */
  push_account_id: param.int().optional(),
};

export const sendE2eeTestNotification = defineApiCommand('push', 'send_e2ee_test_notification', {
  route: 'POST /mobile_push/e2ee/test_notification',
  summary: "Sends an end-to-end encrypted test notification to the caller's active push devices through the relay.",
  params: sendE2eeTestNotificationParams,
  response: emptyResponse,
});
