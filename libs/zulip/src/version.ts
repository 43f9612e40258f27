/**
 * The one place that says which Zulip API this server speaks. Clients read these from
 * GET /server_settings and POST /register to decide which features to use.
 */
export const ZULIP_FEATURE_LEVEL = 420;
export const ZULIP_VERSION = '11.0';
export const ZULIP_MERGE_BASE = '11.0';

/** This server's own version (package.json's, checked by a test), as the OpenAPI document states it. */
export const SERVER_VERSION = '0.1.0';
