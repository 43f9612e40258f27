import { z } from 'zod';
import { apiSchema, int } from '../api/api-schemas';

/**
 * The success body of POST /register: the queue, the server's constants and every key of the
 * initial state the owners serve. Which state keys are present depends on fetch_event_types,
 * so all of them are optional.
 */
export const registerResponseSchema = apiSchema(
  'RegisterResponse',
  z
    .object({
      queue_id: z.string().nullable(),
      last_event_id: int(),
      zulip_feature_level: int(),
      zulip_version: z.string(),
      zulip_merge_base: z.string(),
    })
    // TODO(helper): every state key, declared.
    .catchall(z.unknown()),
);
