import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sodium from 'libsodium-wrappers';
import { zulipResponseErrors, type TestUser } from '@teamchat/testing';
import { documentedExample, type ExampleWorld } from './world';

/**
 * Mobile push (through world.pushRelay, the stand-in for Zulip's push relay the example
 * system is configured with) and the outgoing webhooks' payload. The relay stand-in is shared:
 * an example that makes it refuse or go down puts it back as it was, and reads only the
 * requests that arrived after its own start.
 */

const E2EE_REGISTER = 'push/e2ee/register';
const E2EE_NOTIFY = 'push/e2ee/notify';
const LEGACY_NOTIFY = 'push/test_notification';

let nextPushAccountId = 2408;

const until = async <T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** The caller's E2EE push devices, as POST /register's `push_devices` shows them. */
async function pushDevices(world: ExampleWorld, as: TestUser): Promise<Record<string, { status: string; error_code: string | null }>> {
  const body = await world.succeeds<{ queue_id: string; push_devices: Record<string, { status: string; error_code: string | null }> }>('register-queue', {
    as,
    params: { fetch_event_types: ['push_device'] },
  });
  await world.call('delete-queue', { as, params: { queue_id: body.queue_id } });
  return body.push_devices;
}

/** Registers a device with a real key pair (the relay's part stands in) and waits until the relay took it. */
async function activeDevice(world: ExampleWorld, as: TestUser): Promise<{ pushAccountId: number; keyPair: { publicKey: Uint8Array; privateKey: Uint8Array } }> {
  await sodium.ready;
  const keyPair = sodium.crypto_box_keypair();
  const pushAccountId = nextPushAccountId++;
  await world.succeeds('register-push-device', {
    as,
    params: {
      token_kind: world.example('register-push-device', 'token_kind'),
      push_account_id: pushAccountId,
      push_public_key: Buffer.from(keyPair.publicKey).toString('base64'),
      bouncer_public_key: world.example('register-push-device', 'bouncer_public_key'),
      encrypted_push_registration: Buffer.from(`encrypted-push-registration-data ${pushAccountId}`).toString('base64'),
    },
  });
  await until(`device ${pushAccountId} active`, async () => ((await pushDevices(world, as))[String(pushAccountId)]?.status === 'active' ? true : undefined));
  return { pushAccountId, keyPair };
}

documentedExample('register-push-device', async (world) => {
  await sodium.ready;
  const keyPair = sodium.crypto_box_keypair();
  const pushAccountId = nextPushAccountId++;
  const before = world.pushRelay.of(E2EE_REGISTER).length;
  const encrypted = Buffer.from('encrypted-push-registration-data').toString('base64');
  await world.succeeds('register-push-device', {
    as: world.hamlet,
    params: {
      token_kind: world.example('register-push-device', 'token_kind'),
      push_account_id: pushAccountId,
      push_public_key: Buffer.from(keyPair.publicKey).toString('base64'),
      bouncer_public_key: world.example('register-push-device', 'bouncer_public_key'),
      encrypted_push_registration: encrypted,
    },
  });
  // Handed to the relay as it was sealed for it; then the device is active.
  const registrations = await world.pushRelay.waitFor(E2EE_REGISTER, before + 1);
  expect(registrations.slice(before).map((request) => request.body)).toContainEqual(
    expect.objectContaining({ push_account_id: String(pushAccountId), encrypted_push_registration: encrypted, bouncer_public_key: 'bouncer-public-key' }),
  );
  await until('the device active', async () => ((await pushDevices(world, world.hamlet))[String(pushAccountId)]?.status === 'active' ? true : undefined));
  // Registering the same device again changes nothing.
  await world.succeeds('register-push-device', {
    as: world.hamlet,
    params: {
      token_kind: 'fcm',
      push_account_id: pushAccountId,
      push_public_key: Buffer.from(keyPair.publicKey).toString('base64'),
      bouncer_public_key: 'bouncer-public-key',
      encrypted_push_registration: encrypted,
    },
  });
  expect((await pushDevices(world, world.hamlet))[String(pushAccountId)]).toMatchObject({ status: 'active' });
  // Zulip's documented error (PUSH_SERVICE_NOT_CONFIGURED) is a server without a push relay;
  // the example system has one (world.pushRelay), so it is not asked here.
});

documentedExample('e2ee-test-notify', async (world) => {
  const { pushAccountId, keyPair } = await activeDevice(world, world.cordelia);
  const before = world.pushRelay.of(E2EE_NOTIFY).length;
  await world.succeeds('e2ee-test-notify', { as: world.cordelia, params: { push_account_id: pushAccountId } });
  const [sent] = (await world.pushRelay.waitFor(E2EE_NOTIFY, before + 1)).slice(before);
  const [request] = sent.body.push_requests as { payload: { push_account_id: string; encrypted_data: string } }[];
  expect(request.payload.push_account_id).toBe(String(pushAccountId));
  // Sealed to the device's key: it opens to Zulip's test notification.
  const opened = JSON.parse(
    Buffer.from(sodium.crypto_box_seal_open(Buffer.from(request.payload.encrypted_data, 'base64'), keyPair.publicKey, keyPair.privateKey)).toString('utf8'),
  ) as Record<string, unknown>;
  expect(opened).toMatchObject({ type: 'test', user_id: world.cordelia.id });

  // The documented errors: no active device for that push account ID (Zulip's example id);
  // the relay refusing this server; the relay failing; the relay out of reach.
  await world.fails('e2ee-test-notify', { as: world.cordelia, params: { push_account_id: world.example('e2ee-test-notify', 'push_account_id') } }, 400, 'NO_ACTIVE_PUSH_DEVICE');
  await world.fails('e2ee-test-notify', { as: world.prospero }, 400, 'NO_ACTIVE_PUSH_DEVICE');
  try {
    world.pushRelay.setMode('refuse', E2EE_NOTIFY);
    await world.fails('e2ee-test-notify', { as: world.cordelia }, 403, 'ADMIN_ACTION_REQUIRED');
    world.pushRelay.setMode('fail', E2EE_NOTIFY);
    await world.fails('e2ee-test-notify', { as: world.cordelia }, 502, 'INTERNAL_SERVER_ERROR_ON_BOUNCER');
    world.pushRelay.setMode('ok', E2EE_NOTIFY);
    await world.pushRelay.down();
    await world.fails('e2ee-test-notify', { as: world.cordelia }, 502, 'FAILED_TO_CONNECT_BOUNCER');
  } finally {
    world.pushRelay.setMode('ok', E2EE_NOTIFY);
    await world.pushRelay.up();
  }
});

documentedExample('test-notify', async (world) => {
  // A token registered the older way (POST /users/me/android_gcm_reg_id), Zulip's example token.
  const token = world.example<string>('test-notify', 'token');
  const added = await world.system.api.post('/users/me/android_gcm_reg_id', { token }, { auth: world.othello, subdomain: world.realm.subdomain });
  expect(added.status).toBe(200);
  const before = world.pushRelay.of(LEGACY_NOTIFY).length;
  await world.succeeds('test-notify', { as: world.othello, params: { token } });
  const [sent] = (await world.pushRelay.waitFor(LEGACY_NOTIFY, before + 1)).slice(before);
  expect(sent.body).toMatchObject({ user_id: world.othello.id, token, token_kind: 2 });

  // A token that is not the caller's; one the relay no longer knows.
  await world.fails('test-notify', { as: world.prospero, params: { token } }, 400, 'INVALID_PUSH_DEVICE_TOKEN');
  const forgotten = `forgotten-${Date.now()}`;
  expect((await world.system.api.post('/users/me/android_gcm_reg_id', { token: forgotten }, { auth: world.othello, subdomain: world.realm.subdomain })).status).toBe(200);
  for (const key of [...world.pushRelay.tokens]) if (key.endsWith(`:${forgotten}`)) world.pushRelay.tokens.delete(key);
  await world.fails('test-notify', { as: world.othello, params: { token: forgotten } }, 400, 'INVALID_REMOTE_PUSH_DEVICE_TOKEN');
});

/** A stand-in for an outgoing webhook bot's server: keeps what it is sent, answers `{}` (no reply). */
async function botServer(): Promise<{ url: string; bodies: string[]; close: () => Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ response_not_required: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bot`,
    bodies,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

documentedExample('zulip-outgoing-webhooks', async (world) => {
  // Not an endpoint of this server: Zulip documents, as this "operation"'s 200 answer, the JSON
  // our server POSTs to an outgoing webhook bot's URL. So an outgoing webhook bot is made with a
  // local server as its URL, mentioned in Verona, and what that server receives is checked
  // against Zulip's schema of the payload (zulipResponseErrors), then against the message.
  const server = await botServer();
  try {
    const name = `Outgoing webhook test ${Date.now().toString(36)}`;
    const bot = await world.system.api.post<{ user_id: number }>(
      '/bots',
      { full_name: name, short_name: `outgoing${Date.now().toString(36)}`, bot_type: 3, payload_url: JSON.stringify(server.url), interface_type: 1 },
      { auth: world.iago, subdomain: world.realm.subdomain },
    );
    expect(bot.status).toBe(200);
    const content = `@**${name}** Zulip is the world’s most productive group chat!`;
    const sent = await world.system.api.post<{ id: number }>(
      '/messages',
      { type: 'stream', to: 'Verona', topic: 'Verona2', content },
      { auth: world.iago, subdomain: world.realm.subdomain },
    );
    expect(sent.status).toBe(200);
    const body = await until('the bot server to be posted to', async () => server.bodies[0]);
    const payload = JSON.parse(body) as Record<string, unknown>;
    const errors = zulipResponseErrors('POST', '/zulip-outgoing-webhook', 200, payload);
    if (errors && errors.length > 0) throw new Error(`the outgoing webhook payload is not what Zulip documents:\n${errors.join('\n')}\n${body.slice(0, 1500)}`);
    expect(payload).toMatchObject({ data: content, trigger: 'mention', bot_full_name: name });
    expect(payload.message).toMatchObject({ id: sent.body.id, type: 'stream', display_recipient: 'Verona', subject: 'Verona2', sender_id: world.iago.id, sender_email: world.iago.email });
  } finally {
    await server.close();
  }
});
