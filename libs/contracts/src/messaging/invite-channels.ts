import { z } from 'zod';
import { defineCommand } from '../command';
import { authUserSchema, type AuthUser } from '../command';

/**
 * Internal, from users-groups' POST /invites and POST /invites/multiuse (Zulip's
 * access_streams_for_invite): each channel must exist in the organization and be readable by
 * the inviter ("Invalid channel ID {id}. No invites were sent."), and the inviter must be
 * allowed to add subscribers to it unless it is a default channel ("You do not have permission
 * to subscribe other users to channels."). Answers `{}` or refuses.
 */
export const checkInviteChannels = defineCommand<{ inviter: AuthUser; streamIds: number[] }, Record<string, never>>(
  'messaging',
  'check_invite_channels',
  z.object({ inviter: authUserSchema, streamIds: z.array(z.number().int()) }),
);

/**
 * Internal, from users-groups when an account is made from an invitation or a sign-up (Zulip's
 * set_up_streams_and_groups_for_new_human_user): the new user joins the channels of
 * `streamIds` that still exist and are not archived, plus the organization's default channels
 * when `includeDefaultChannels`, through the subscription path (its events), whoever the
 * invitation's channels are visible to. Returns the names of the channels joined.
 */
export const subscribeNewUser = defineCommand<
  { user: AuthUser; streamIds: number[]; includeDefaultChannels: boolean; requestId: string },
  { subscribed: string[] }
>(
  'messaging',
  'subscribe_new_user',
  z.object({ user: authUserSchema, streamIds: z.array(z.number().int()), includeDefaultChannels: z.boolean(), requestId: z.string() }),
);
