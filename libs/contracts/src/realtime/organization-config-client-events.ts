import { z } from 'zod';
import { apiSchema } from '../api/api-schemas';
import { linkifierSchema, realmPlaygroundSchema } from '../messaging/linkifiers';
import { customProfileFieldSchema } from './register-records';
import { base } from './client-event-shapes';

// Client events of the organization's configuration lists: linkifiers, code playgrounds and
// custom profile fields. Each carries the whole list after the change, as Zulip's do.

/** `realm_linkifiers`: every linkifier, in order (queues with the `linkifier_url_template` capability only). */
export const realmLinkifiersEvent = apiSchema(
  'RealmLinkifiersEvent',
  z.object({ ...base('realm_linkifiers'), realm_linkifiers: z.array(linkifierSchema) }),
);

/** `realm_playgrounds`: every code playground. */
export const realmPlaygroundsEvent = apiSchema(
  'RealmPlaygroundsEvent',
  z.object({ ...base('realm_playgrounds'), realm_playgrounds: z.array(realmPlaygroundSchema) }),
);

/** `custom_profile_fields`: every custom profile field, in order. */
export const customProfileFieldsEvent = apiSchema(
  'CustomProfileFieldsEvent',
  z.object({ ...base('custom_profile_fields'), fields: z.array(customProfileFieldSchema) }),
);
