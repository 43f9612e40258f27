import { Inject, Injectable } from '@nestjs/common';
import type { UserCommand, Messaging } from '@teamchat/contracts';
import { ChannelsRepository } from '../data/channels.repository';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { ChannelAccess } from '../core/channel-access';

/**
 * GET /streams/{stream_id}/email_address (zerver/views/streams.py get_stream_email_address):
 * the incoming address of a channel the caller may read, in Zulip's format
 * (zerver/lib/email_mirror_helpers.py encode_email_address): `<name>.<token>@<domain>`, the name
 * part left out when it cannot be written in ASCII. The domain is EMAIL_GATEWAY_DOMAIN
 * (EXTERNAL_URL's host name by default). The email gateway that would receive the mail is not
 * run yet, and there is no email gateway bot: `sender_id` may only name the caller.
 */
@Injectable()
export class GetChannelEmailAddress {
  constructor(
    private readonly channels: ChannelAccess,
    private readonly channelRows: ChannelsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ realm, user, params }: UserCommand<DecodedParams<typeof Messaging.getChannelEmailAddressParams>>): Promise<{ email: string }> {
    const access = await this.channels.readable(realm.id, user, params.stream_id);
    if (!access) throw badRequest('Invalid channel ID');
    if (params.sender_id !== undefined && params.sender_id !== user.id) throw badRequest('Invalid user ID');
    const emailToken = await this.channelRows.emailToken(access.channel.id);
    const domain = this.config.EMAIL_GATEWAY_DOMAIN || new URL(this.config.EXTERNAL_URL).hostname;
    return { email: channelEmailAddress(access.channel.name, emailToken, domain) };
  }
}

/**
 * Zulip's encode_email_address_helper: runs of non-word characters become one hyphen, then
 * Django's slugify; if that lost characters (a name not writable in ASCII) only the token is used.
 */
export function channelEmailAddress(name: string, token: string, domain: string): string {
  const hyphenated = name.replace(/[^\p{L}\p{N}_]+/gu, '-');
  const slug = hyphenated
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, '')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  const local = slug.length === hyphenated.length ? `${slug}.${token}` : token;
  return `${local}@${domain}`;
}
