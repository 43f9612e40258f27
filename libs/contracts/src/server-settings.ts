import { z } from 'zod';
import { apiSchema, int } from './api/api-schemas';
import { defineEndpoint } from './api/endpoint';

const authenticationMethods = z.object({
  password: z.boolean(),
  dev: z.boolean(),
  email: z.boolean(),
  ldap: z.boolean(),
  remoteuser: z.boolean(),
  github: z.boolean(),
  azuread: z.boolean(),
  gitlab: z.boolean(),
  google: z.boolean(),
  apple: z.boolean(),
  saml: z.boolean(),
  'openid connect': z.boolean(),
});

/**
 * What a client reads before logging in. The organization's keys are there only when the
 * host selects one.
 */
export const serverSettingsSchema = apiSchema(
  'ServerSettings',
  z.object({
    authentication_methods: authenticationMethods,
    external_authentication_methods: z.array(
      z.object({
        name: z.string(),
        display_name: z.string(),
        display_icon: z.string().nullable(),
        login_url: z.string(),
        signup_url: z.string(),
      }),
    ),
    zulip_feature_level: int(),
    zulip_version: z.string(),
    zulip_merge_base: z.string(),
    push_notifications_enabled: z.boolean(),
    is_incompatible: z.boolean(),
    email_auth_enabled: z.boolean(),
    require_email_format_usernames: z.boolean(),
    realm_url: z.string().optional(),
    realm_uri: z.string().optional(),
    realm_name: z.string().optional(),
    realm_icon: z.string().optional(),
    realm_description: z.string().optional(),
    realm_web_public_access_enabled: z.boolean().optional(),
  }),
);

/** GET /server_settings: unauthenticated; every parameter is reported as ignored. */
export const serverSettings = defineEndpoint({
  route: 'GET /server_settings',
  summary: 'The server’s and the organization’s settings a client reads before logging in.',
  auth: 'none',
  params: {},
  response: serverSettingsSchema,
});
