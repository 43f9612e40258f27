import { AVATAR_SIZE, ZulipError } from '@teamchat/zulip';
import sharp, { type Sharp } from 'sharp';

/** Zulip's DEFAULT_EMOJI_SIZE. */
export const EMOJI_SIZE = 64;

/** Zulip's IMAGE_BOMB_TOTAL_PIXELS: larger images are refused before they are decoded. */
const IMAGE_BOMB_TOTAL_PIXELS = 90_000_000;

/**
 * The image types emoji and avatars accept, with the extension an emoji's file gets (Zulip's
 * THUMBNAIL_ACCEPT_IMAGE_TYPES that are also INLINE_MIME_TYPES, and guess_extension).
 */
export const IMAGE_TYPES: Record<string, { extension: string; format: 'gif' | 'jpeg' | 'png' | 'webp' | 'avif' }> = {
  'image/avif': { extension: '.avif', format: 'avif' },
  'image/gif': { extension: '.gif', format: 'gif' },
  'image/jpeg': { extension: '.jpg', format: 'jpeg' },
  'image/png': { extension: '.png', format: 'png' },
  'image/webp': { extension: '.webp', format: 'webp' },
};

/** Zulip's BadImageError. */
const badImage = (msg: string) => new ZulipError('BAD_IMAGE', msg);
export const invalidImageFormat = () => badImage('Invalid image format');

/** The accepted type a part declares (its media type, parameters aside), or undefined. */
export function acceptedImageType(declared: string | undefined): string | undefined {
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  return type in IMAGE_TYPES ? type : undefined;
}

/** Decodes with sharp, mapping its refusals to Zulip's texts (libvips_check_image). */
async function decoded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/pixel limit/i.test(message)) throw badImage('Image size exceeds limit.');
    if (/unsupported image format|bad seek|premature end|corrupt|truncated|invalid/i.test(message)) {
      throw badImage('Could not decode image; did you upload an image file?');
    }
    throw badImage('Image is corrupted or truncated');
  }
}

const open = (data: Buffer, animated = false): Sharp => sharp(data, { animated, limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS, failOn: 'error' });

/**
 * An emoji's images (Zulip's resize_emoji): 64x64, cropped to the centre, in the format its
 * type names. An animated GIF or WebP stays animated, each frame fitted into 64x64 (padded with
 * transparency when not square), with a still PNG of its first frame beside it.
 */
export async function resizeEmoji(data: Buffer, type: string): Promise<{ image: Buffer; still: Buffer | null }> {
  const { format } = IMAGE_TYPES[type];
  return decoded(async () => {
    const { pages = 1 } = await open(data).metadata();
    const still = () => open(data).resize(EMOJI_SIZE, EMOJI_SIZE, { fit: 'cover', position: 'centre' });
    if (pages > 1 && (format === 'gif' || format === 'webp')) {
      const image = await open(data, true)
        .resize(EMOJI_SIZE, EMOJI_SIZE, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .toFormat(format)
        .toBuffer();
      return { image, still: await still().png().toBuffer() };
    }
    return { image: await still().toFormat(format).toBuffer(), still: null };
  });
}

/** An avatar's PNG (Zulip's resize_avatar): square, cropped to the centre, `size` pixels (the first frame of an animation). */
export function resizeAvatar(data: Buffer, size: number = AVATAR_SIZE): Promise<Buffer> {
  return decoded(() => open(data).resize(size, size, { fit: 'cover', position: 'centre' }).png().toBuffer());
}

/** Zulip's resize_logo bound: 8 avatars wide, one high. */
export const LOGO_MAX_WIDTH = 8 * AVATAR_SIZE;
export const LOGO_MAX_HEIGHT = AVATAR_SIZE;

/**
 * An organization's wide logo as a PNG (Zulip's resize_logo): only ever scaled down, keeping its
 * proportions, to fit within 800x100, without padding (1000x10 becomes 800x8; 10x10 stays 10x10).
 */
export function resizeLogo(data: Buffer): Promise<Buffer> {
  return decoded(() => open(data).resize(LOGO_MAX_WIDTH, LOGO_MAX_HEIGHT, { fit: 'inside', withoutEnlargement: true }).png().toBuffer());
}
