import { createHash, createHmac, randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { UsersGroups, UserCommand } from '@teamchat/contracts';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { bigBlueButtonConfigured } from './video-call-providers';

type Params = DecodedParams<typeof UsersGroups.createBigBlueButtonCallParams>;

const base64Url = (bytes: Buffer): string => bytes.toString('base64url');

/** JSON as Python writes it with separators (",", ":"): non-ASCII escaped. */
const compactJson = (value: unknown): string => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Django's Signer().sign_object, which Zulip signs the meeting with: the compact JSON in
 * unpadded URL-safe base64, then `:` and its HMAC-SHA256 under a key derived from the salt
 * `django.core.signing.Signersigner` and the secret.
 */
export function signObject(value: unknown, secret: string): string {
  const data = base64Url(Buffer.from(compactJson(value), 'latin1'));
  const key = createHash('sha256').update(`django.core.signing.Signersigner${secret}`).digest();
  return `${data}:${base64Url(createHmac('sha256', key).update(data).digest())}`;
}

/**
 * GET /calls/bigbluebutton/create (zerver/views/video_calls.py get_bigbluebutton_url): a new
 * meeting id, and the join URL carrying the meeting signed (its name, whether cameras are off,
 * the caller as moderator), so nobody can tamper with it to join another meeting. Zulip signs
 * with its SECRET_KEY; here the BigBlueButton secret is the key (the join page, which checks
 * it, is not served yet). Refused, with the text of Zulip's join page, when BigBlueButton is
 * not configured.
 */
@Injectable()
export class CreateBigBlueButtonCall {
  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'JITSI_SERVER_URL' | 'BIG_BLUE_BUTTON_URL' | 'BIG_BLUE_BUTTON_SECRET'>) {}

  execute({ user, params }: UserCommand<Params>): { url: string } {
    if (!bigBlueButtonConfigured(this.config)) throw badRequest('BigBlueButton is not configured.');
    const meetingId = `zulip-${randomInt(100_000_000_000, 1_000_000_000_000)}`;
    const signed = signObject(
      { meeting_id: meetingId, name: params.meeting_name, lock_settings_disable_cam: params.voice_only, moderator: user.id },
      this.config.BIG_BLUE_BUTTON_SECRET,
    );
    return { url: `/calls/bigbluebutton/join?bigbluebutton=${signed}` };
  }
}
