import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';

/**
 * GET /calls/bigbluebutton/create (zerver/views/video_calls.py get_bigbluebutton_url): a signed
 * join URL for a new BigBlueButton meeting, the caller its moderator. Jitsi Meet links are made
 * by clients themselves from `jitsi_server_url`.
 */
export const createBigBlueButtonCallParams = {
  meeting_name: param.string(),
  voice_only: param.bool().default(false),
};

export const createBigBlueButtonCall = defineApiCommand('users-groups', 'create_bigbluebutton_call', {
  route: 'GET /calls/bigbluebutton/create',
  summary: 'A signed join URL for a new BigBlueButton meeting, when the server has BigBlueButton configured.',
  params: createBigBlueButtonCallParams,
  response: z.object({ url: z.string() }),
});
