import { Inject, Injectable } from '@nestjs/common';
import type { RealmInfo } from '@teamchat/contracts';
import { APP_CONFIG, type AppConfig } from '@teamchat/platform';
import { ZulipError } from '@teamchat/zulip';
import { OrganizationsRepository, type RealmRow } from '../data/organizations.repository';

/**
 * Organizations by host name. The root host (EXTERNAL_URL) and hosts outside it select the
 * root organization (subdomain ""), falling back to DEFAULT_ORGANIZATION; `<sub>.<root host>`
 * selects that subdomain, which must exist.
 */
@Injectable()
export class RealmDirectory {
  private readonly root: URL;

  constructor(
    private readonly organizations: OrganizationsRepository,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'EXTERNAL_URL' | 'DEFAULT_ORGANIZATION'>,
  ) {
    this.root = new URL(config.EXTERNAL_URL);
  }

  /** The subdomain a host names, or null when it names none (root host, IP, foreign name). */
  subdomainOf(host: string): string | null {
    const hostname = host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
    const rootHostname = this.root.hostname.toLowerCase();
    if (hostname === rootHostname) return null;
    if (hostname.endsWith(`.${rootHostname}`)) return hostname.slice(0, -rootHostname.length - 1);
    return null;
  }

  async resolve(host: string): Promise<RealmRow> {
    const subdomain = this.subdomainOf(host);
    const realm =
      subdomain !== null
        ? await this.bySubdomain(subdomain)
        : ((await this.bySubdomain('')) ??
          (this.config.DEFAULT_ORGANIZATION ? await this.bySubdomain(this.config.DEFAULT_ORGANIZATION) : null));
    if (!realm) throw new ZulipError('NONEXISTENT_SUBDOMAIN', 'Invalid subdomain');
    return realm;
  }

  async bySubdomain(subdomain: string): Promise<RealmRow | null> {
    return this.organizations.bySubdomain(subdomain);
  }

  hostnameOf(subdomain: string): string {
    return subdomain ? `${subdomain}.${this.root.hostname}` : this.root.hostname;
  }

  urlOf(subdomain: string): string {
    const port = this.root.port ? `:${this.root.port}` : '';
    return `${this.root.protocol}//${this.hostnameOf(subdomain)}${port}`;
  }

  toInfo(realm: RealmRow): RealmInfo {
    const url = this.urlOf(realm.subdomain);
    return {
      id: realm.id,
      subdomain: realm.subdomain,
      name: realm.name,
      url,
      host: this.hostnameOf(realm.subdomain),
      description: realm.description,
      // Zulip's server_settings realm_icon: the uploaded icon's URL made absolute, or the default.
      iconUrl: realm.iconSource === 'U' ? `${url}/user_avatars/${realm.id}/realm/icon.png?version=${realm.iconVersion}` : `${url}/static/images/logo/zulip-icon-128x128.png`,
      spectatorAccess: realm.enableSpectatorAccess,
      passwordAuthEnabled: realm.passwordAuthEnabled,
    };
  }
}
