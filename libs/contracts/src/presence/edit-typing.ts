import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { emptyResponse } from '../api/api-schemas';

/** POST /messages/{message_id}/typing (zerver/views/typing.py send_message_edit_notification_backend). */
export const editTypingParams = {
  message_id: param.int(),
  op: param.oneOf(['start', 'stop'] as const),
};

export const sendEditTyping = defineApiCommand('presence', 'edit_typing', {
  route: 'POST /messages/{message_id}/typing',
  summary: 'Tells those who would see an edit of a message that the caller started or stopped editing it.',
  params: editTypingParams,
  response: emptyResponse,
});
