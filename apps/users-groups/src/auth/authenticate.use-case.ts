import { Injectable } from '@nestjs/common';
import type { Authenticated, AuthenticatedOrRefused } from '@teamchat/contracts';
import { ZulipError } from '@teamchat/zulip';
import type { RealmRow } from '../data/organizations.repository';
import { RealmDirectory } from '../realms/realm-directory';
import { resolveSettings } from '@teamchat/contracts';
import { BotType, apiEmail } from '@teamchat/contracts';
import { CredentialsRepository, type ApiKeyOwner } from '../data/credentials.repository';
import { isWellFormedApiKey } from './api-keys';

const unauthorized = (msg: string) => new ZulipError('UNAUTHORIZED', msg);

/**
 * HTTP Basic `email:api_key` (or the key alone, `email: null`) against the organization the host
 * selects, with Zulip's answers (zerver/decorator.py validate_api_key): all failures are 401
 * UNAUTHORIZED.
 */
@Injectable()
export class Authenticate {
  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly realms: RealmDirectory,
  ) {}

  /** One credential (the command of gateways of the previous release): `executeMany`'s answer, a refusal thrown. */
  async execute(input: { host: string; email: string | null; apiKey: string }): Promise<Authenticated> {
    const [result] = (await this.executeMany({ host: input.host, credentials: [input] })).results;
    if ('refused' in result) throw unauthorized(result.refused);
    return result.ok;
  }

  /**
   * Many credentials of the host's organization, in one read of their keys' owners: each
   * answered with its caller, or refused with the 401's message (a host naming no
   * organization fails them all).
   */
  async executeMany(input: { host: string; credentials: { email: string | null; apiKey: string }[] }): Promise<{ results: AuthenticatedOrRefused[] }> {
    const realm = await this.realms.resolve(input.host);
    const wellFormed = input.credentials.map((credential) => isWellFormedApiKey(credential.apiKey));
    const owners = await this.credentials.apiKeyOwners(input.credentials.filter((_, i) => wellFormed[i]).map((credential) => credential.apiKey));
    return {
      results: input.credentials.map((credential, i) => {
        try {
          if (!wellFormed[i]) throw unauthorized('Malformed API key');
          return { ok: this.check(realm, credential, owners.get(credential.apiKey)) };
        } catch (error) {
          if (error instanceof ZulipError) return { refused: error.message };
          throw error;
        }
      }),
    };
  }

  /** Zulip's checks of a key's owner against the credential and the organization. */
  private check(realm: RealmRow, input: { email: string | null }, user: ApiKeyOwner | undefined): Authenticated {
    if (!user) throw unauthorized('Invalid API key');
    const visibility = resolveSettings(user.settings).email_address_visibility;
    const shownEmail = apiEmail(user, visibility, this.realms.hostnameOf(user.realmSubdomain));
    const given = input.email?.trim().toLowerCase();
    if (given !== undefined && given !== user.deliveryEmail.toLowerCase() && given !== shownEmail.toLowerCase()) {
      throw unauthorized('Invalid API key');
    }
    if (user.realmId !== realm.id) throw unauthorized('Account is not associated with this subdomain');
    if (realm.deactivated) throw unauthorized('This organization has been deactivated');
    if (!user.isActive) throw unauthorized('Account is deactivated');

    return {
      realm: this.realms.toInfo(realm),
      user: {
        id: user.id,
        realmId: user.realmId,
        email: shownEmail,
        deliveryEmail: user.deliveryEmail,
        fullName: user.fullName,
        role: user.role,
        isBot: user.isBot,
      },
      // An incoming webhook bot may only send messages; the gateway holds it to that (AdmitCaller).
      ...(user.botType === BotType.INCOMING_WEBHOOK ? { sendOnly: true } : {}),
    };
  }
}
