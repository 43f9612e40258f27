import { z } from 'zod';
import { param } from '@teamchat/zulip';
import { defineApiCommand } from '../command';
import { apiSchema, emptyResponse, int } from '../api/api-schemas';

/** A muted user as POST /register and the `muted_users` event list them (Zulip's get_user_mutes). */
export const mutedUserSchema = apiSchema('MutedUser', z.object({ id: int(), timestamp: int() }));
export type MutedUserRecord = z.infer<typeof mutedUserSchema>;

export const mutedUserPathParams = {
  muted_user_id: param.int(),
};

export const muteUser = defineApiCommand('messaging', 'mute_user', {
  route: 'POST /users/me/muted_users/{muted_user_id}',
  summary: 'Mutes a user for the caller: their messages arrive read and never notify.',
  params: mutedUserPathParams,
  response: emptyResponse,
});

export const unmuteUser = defineApiCommand('messaging', 'unmute_user', {
  route: 'DELETE /users/me/muted_users/{muted_user_id}',
  summary: 'Unmutes a user the caller had muted.',
  params: mutedUserPathParams,
  response: emptyResponse,
});

/** Zulip's AlertWord.MAX_ALERT_WORD_LENGTH. */
export const MAX_ALERT_WORD_LENGTH = 100;

const alertWordsResponse = z.object({ alert_words: z.array(z.string()) });

export const listAlertWords = defineApiCommand('messaging', 'list_alert_words', {
  route: 'GET /users/me/alert_words',
  summary: "The caller's alert words.",
  params: {},
  response: alertWordsResponse,
});

export const addAlertWordsParams = {
  alert_words: param.json(z.array(z.string().max(MAX_ALERT_WORD_LENGTH))),
};

export const addAlertWords = defineApiCommand('messaging', 'add_alert_words', {
  route: 'POST /users/me/alert_words',
  summary: 'Adds alert words (stripped; blank ones and ones already present in any case are ignored); answers them all.',
  params: addAlertWordsParams,
  response: alertWordsResponse,
});

export const removeAlertWordsParams = {
  alert_words: param.json(z.array(z.string())),
};

export const removeAlertWords = defineApiCommand('messaging', 'remove_alert_words', {
  route: 'DELETE /users/me/alert_words',
  summary: 'Removes alert words (in any case; unknown ones are ignored); answers those left.',
  params: removeAlertWordsParams,
  response: alertWordsResponse,
});
