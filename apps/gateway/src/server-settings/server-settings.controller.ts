import { Controller, Inject, Req } from '@nestjs/common';
import { serverSettings, type RealmInfo } from '@teamchat/contracts';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION, ZulipError } from '@teamchat/zulip';
import { CredentialCache } from '../auth/credential-cache';
import { rawParams, type ApiRequest } from '../http/request-context';
import { Route } from '../http/route.decorator';

/**
 * GET /server_settings, unauthenticated: what a client reads before logging in. The
 * organization's keys are left out when the host selects none.
 */
@Controller()
export class ServerSettingsController {
  constructor(
    private readonly credentials: CredentialCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Route(serverSettings)
  async get(@Req() req: ApiRequest) {
    req.ctx.ignored = Object.keys(rawParams(req)).sort();
    const realm = await this.credentials.realm(req.header('host') ?? '', req.ctx.time).catch((error: unknown) => {
      if (error instanceof ZulipError && error.code === 'NONEXISTENT_SUBDOMAIN') return null;
      throw error;
    });
    const passwordAuth = realm?.passwordAuthEnabled ?? true;
    return {
      authentication_methods: {
        password: passwordAuth,
        dev: false,
        email: passwordAuth,
        ldap: false,
        remoteuser: false,
        github: false,
        azuread: false,
        gitlab: false,
        google: false,
        apple: false,
        saml: false,
        'openid connect': false,
      },
      external_authentication_methods: [],
      zulip_feature_level: ZULIP_FEATURE_LEVEL,
      zulip_version: ZULIP_VERSION,
      zulip_merge_base: ZULIP_MERGE_BASE,
      // Zulip's: true when the server sends through the push notification service (its bouncer).
      push_notifications_enabled: this.config.PUSH_RELAY_URL !== '',
      is_incompatible: (req.header('user-agent') ?? '').startsWith('ZulipInvalid'),
      email_auth_enabled: passwordAuth,
      require_email_format_usernames: true,
      ...(realm ? realmKeys(realm) : {}),
    };
  }
}

function realmKeys(realm: RealmInfo) {
  return {
    realm_url: realm.url,
    realm_uri: realm.url,
    realm_name: realm.name,
    realm_icon: realm.iconUrl,
    realm_description: realm.description,
    realm_web_public_access_enabled: realm.spectatorAccess,
  };
}
