import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { emptyResponse, int } from '../api/api-schemas';
import { messagePathParams } from './message-actions';

export const getReadReceipts = defineApiCommand('messaging', 'get_read_receipts', {
  route: 'GET /messages/{message_id}/read_receipts',
  summary: 'Who has read a message the caller may read (those who share read receipts; never its sender).',
  params: messagePathParams,
  response: z.object({ user_ids: z.array(int()) }),
});

/** Zulip's Realm.REPORT_MESSAGE_REASONS: each report type with the words the report shows. */
export const REPORT_MESSAGE_REASONS = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
} as const;
export const REPORT_TYPES = Object.keys(REPORT_MESSAGE_REASONS) as [keyof typeof REPORT_MESSAGE_REASONS, ...(keyof typeof REPORT_MESSAGE_REASONS)[]];

/** Zulip's Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH. */
export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;

export const reportMessageParams = {
  ...messagePathParams,
  report_type: param.oneOf(REPORT_TYPES),
  description: param.string(z.string().max(MAX_REPORT_DESCRIPTION_LENGTH)).default(''),
};

export const reportMessage = defineApiCommand('messaging', 'report_message', {
  route: 'POST /messages/{message_id}/report',
  summary: "Reports a message the caller may read to the organization's moderation request channel.",
  params: reportMessageParams,
  response: emptyResponse,
});
