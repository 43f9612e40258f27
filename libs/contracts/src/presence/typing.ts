import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { emptyResponse } from '../api/api-schemas';

/**
 * POST /typing (zerver/views/typing.py). `private` is refused as Zulip does from feature level
 * 215 ("Invalid type"). `to` and `stream_id` accept JSON `null` as "not given", as Zulip's
 * `Json[... | None]` does. The topic is stripped, and may arrive as `subject`.
 */
export const typingParams = {
  type: param.oneOf(['direct', 'stream', 'channel'] as const).default('direct'),
  op: param.oneOf(['start', 'stop'] as const),
  to: param.json(z.array(z.number().int()).nullable()).optional(),
  stream_id: param.json(z.number().int().nullable()).optional(),
  topic: param.string(z.string().trim()).alias('subject').optional(),
};

export const sendTyping = defineApiCommand('presence', 'typing', {
  route: 'POST /typing',
  summary: "Tells a conversation's other participants that the caller started or stopped typing.",
  params: typingParams,
  response: emptyResponse,
});
