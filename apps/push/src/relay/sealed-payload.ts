import sodium from 'libsodium-wrappers';

/** An X25519 public key is 32 bytes. */
export const PUBLIC_KEY_BYTES = 32;

/**
 * Decodes a client's `push_public_key` (RFC 4648 standard base64, padding included) to its 32
 * bytes; undefined when it is anything else.
 */
export function decodePublicKey(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === PUBLIC_KEY_BYTES ? new Uint8Array(bytes) : undefined;
}

/**
 * The notification's JSON sealed to the device's public key with libsodium's sealed box
 * (`crypto_box_seal`: an ephemeral X25519 key pair, XSalsa20-Poly1305), so only the device's
 * secret key opens it; standard base64.
 */
export async function sealPayload(payload: Record<string, unknown>, publicKey: Uint8Array): Promise<string> {
  await sodium.ready;
  const sealed = sodium.crypto_box_seal(new TextEncoder().encode(JSON.stringify(payload)), publicKey);
  return Buffer.from(sealed).toString('base64');
}
