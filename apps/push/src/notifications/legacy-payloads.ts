import type { RealmRef } from '@teamchat/contracts';

/**
 * What every notification to a token-registered device carries (Zulip's get_base_payload):
 * the server, the organization and the user it is for.
 */
export function basePayload(realm: Pick<RealmRef, 'id' | 'name' | 'url'>, userId: number): Record<string, unknown> {
  return {
    server: new URL(realm.url).host,
    realm_id: realm.id,
    realm_uri: realm.url,
    realm_url: realm.url,
    realm_name: realm.name,
    user_id: userId,
  };
}
