import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';

export const typingParams = {
  type: param.oneOf(['direct', 'stream', 'channel', 'private'] as const).default('direct'),
  op: param.oneOf(['start', 'stop'] as const),
  to: param.json(z.array(z.number().int())).optional(),
  stream_id: param.int().optional(),
  topic: param.string().optional(),
};

/** POST /typing: a typing start/stop notification to a conversation's other participants. */
export const sendTyping = defineApiCommand<typeof typingParams, Record<string, never>>('presence', 'typing', typingParams);
