import sodium from 'libsodium-wrappers';
import { decodePublicKey, sealPayload } from './sealed-payload';

describe('sealed payloads', () => {
  beforeAll(() => sodium.ready);

  it('decodes a standard-base64 32-byte public key and nothing else', () => {
    const key = Buffer.alloc(32, 0xfb);
    expect(Buffer.from(decodePublicKey(key.toString('base64'))!).equals(key)).toBe(true);
    expect(decodePublicKey(key.toString('base64url'))).toBeUndefined();
    expect(decodePublicKey(key.toString('base64').replace(/=$/, ''))).toBeUndefined();
    expect(decodePublicKey(Buffer.alloc(31).toString('base64'))).toBeUndefined();
    expect(decodePublicKey(Buffer.alloc(33).toString('base64'))).toBeUndefined();
    expect(decodePublicKey('')).toBeUndefined();
    expect(decodePublicKey('a b=')).toBeUndefined();
  });

  it('seals JSON that only the matching secret key opens', async () => {
    const device = sodium.crypto_box_keypair();
    const stranger = sodium.crypto_box_keypair();
    const sealed = Buffer.from(await sealPayload({ type: 'test', user_id: 7 }, device.publicKey), 'base64');
    const opened = sodium.crypto_box_seal_open(sealed, device.publicKey, device.privateKey);
    expect(JSON.parse(Buffer.from(opened).toString('utf8'))).toEqual({ type: 'test', user_id: 7 });
    expect(() => sodium.crypto_box_seal_open(sealed, stranger.publicKey, stranger.privateKey)).toThrow();
    // A new ephemeral key each time: the same payload never seals the same way twice.
    expect(await sealPayload({ type: 'test' }, device.publicKey)).not.toBe(await sealPayload({ type: 'test' }, device.publicKey));
  });
});
