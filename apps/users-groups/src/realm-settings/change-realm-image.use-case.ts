import { Injectable } from '@nestjs/common';
import { UsersGroups, type ClientEvent, type EventDef } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest, isAdminRole, mustBeAdmin } from '@teamchat/zulip';
import { RealmSettingsRepository } from '../data/realm-settings.repository';
import { UsersRepository } from '../data/users.repository';
import { realmImages } from './realm-setting-values';

/**
 * The row part of POST and DELETE /realm/icon and /realm/logo (zerver/actions/realm_icon.py
 * do_change_icon_source, realm_logo.py do_change_logo_source), for the uploads service, which
 * stores the images first: an administrator sets the image's source (`U` uploaded, or the
 * default), its version moves on, and every active user hears a `realm` update_dict event named
 * after the image ("icon", "logo", "night_logo") with its URL and source.
 */
@Injectable()
export class ChangeRealmImage {
  constructor(
    private readonly settings: RealmSettingsRepository,
    private readonly users: UsersRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, image, source, requestId }: UsersGroups.ChangeRealmImagePayload): Promise<{ url: string; source: string }> {
    if (!isAdminRole(user.role)) throw mustBeAdmin();
    if (source !== 'U' && source !== UsersGroups.REALM_IMAGE_DEFAULT_SOURCE[image]) throw badRequest('Invalid image source');
    const everyone = await this.users.activeIdsOfRealm(realm.id);
    const def = UsersGroups.RealmSettingsEvents.realmChanged as EventDef<ClientEvent>;
    return this.outbox.runCold(async (tx) => {
      const row = await this.settings.changeImage(realm.id, image, source, tx);
      const shown = realmImages(row, realm.url);
      const url = shown[`${image}_url`];
      const data = { [`${image}_url`]: url, [`${image}_source`]: shown[`${image}_source`] };
      return {
        value: { url, source: shown[`${image}_source`] },
        events: [{ def, payload: { realmId: realm.id, users: everyone, event: { type: 'realm', op: 'update_dict', property: image, data } } }],
      };
    }, requestId);
  }
}
