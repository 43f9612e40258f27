import { EmailVisibility, UsersGroupsEvents, apiEmail, canSeeDeliveryEmail, type ClientEvent, type EventDef } from '@teamchat/contracts';
import { avatarUrls } from '@teamchat/zulip';

type Event = { def: EventDef<ClientEvent>; payload: ClientEvent };

/**
 * What a user's change of email_address_visibility tells the organization (Zulip's
 * do_change_user_setting: send_delivery_email_update_events, then, when "everyone" is the old or
 * the new value, send_user_email_update_event and notify_avatar_url_change): the real address to
 * those who may see it now and could not before, `delivery_email: null` to those who no longer
 * may; and when the address the API shows changes (real ↔ `user<id>@…`), `new_email` and the
 * avatar's URLs to everyone.
 */
export function emailVisibilityEvents(input: {
  realmId: number;
  realmHost: string;
  user: { id: number; deliveryEmail: string; isBot: boolean; avatarSource: string; avatarVersion: number };
  viewers: { id: number; role: number }[];
  before: number;
  after: number;
}): Event[] {
  const { realmId, user, viewers, before, after } = input;
  const realmUser = (users: number[], person: Record<string, unknown>): Event => ({
    def: UsersGroupsEvents.realmUserChanged,
    payload: { realmId, users, event: { type: 'realm_user', op: 'update', person: { user_id: user.id, ...person } } },
  });
  const events: Event[] = [];
  const nowVisible = viewers.filter((viewer) => !canSeeDeliveryEmail(viewer, user.id, before) && canSeeDeliveryEmail(viewer, user.id, after));
  const nowHidden = viewers.filter((viewer) => canSeeDeliveryEmail(viewer, user.id, before) && !canSeeDeliveryEmail(viewer, user.id, after));
  if (nowVisible.length > 0) events.push(realmUser(nowVisible.map((viewer) => viewer.id), { delivery_email: user.deliveryEmail }));
  if (nowHidden.length > 0) events.push(realmUser(nowHidden.map((viewer) => viewer.id), { delivery_email: null }));
  if (before !== EmailVisibility.EVERYONE && after !== EmailVisibility.EVERYONE) return events;
  const everyone = viewers.map((viewer) => viewer.id);
  events.push(realmUser(everyone, { new_email: apiEmail(user, after, input.realmHost) }));
  events.push(realmUser(everyone, { avatar_source: user.avatarSource, ...avatarUrls(user, realmId), avatar_version: user.avatarVersion }));
  return events;
}
