import { SetMetadata } from '@nestjs/common';

export const RATE_LIMIT_EXEMPT = Symbol('RATE_LIMIT_EXEMPT');

/**
 * The route does not count against the per-user limit: long-polling clients ask again as soon
 * as an answer arrives, as often as events come (Zulip does not limit event polling either).
 */
export const NotRateLimited = () => SetMetadata(RATE_LIMIT_EXEMPT, true);
