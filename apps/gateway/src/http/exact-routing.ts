import type { RouterOptions } from 'express';

/**
 * How every route of the gateway is matched: exactly, as Zulip's URL patterns are. Express's
 * default ignores case and a trailing slash, which let `/API/V1/register` reach a handler past
 * checks written for `/api/` (issue 22); one rule for every router and the application's own.
 */
export const EXACT_ROUTING: RouterOptions = { caseSensitive: true, strict: true };
