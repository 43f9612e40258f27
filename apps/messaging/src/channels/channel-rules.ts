import { LIMITS, Role, badRequest } from '@teamchat/zulip';

/** Zulip's check_stream_name: stripped, non-empty, at most 60, no control characters. */
export function checkChannelName(raw: string): string {
  const name = raw.trim();
  if (!name) throw badRequest("Channel name can't be empty.");
  if ([...name].length > LIMITS.maxStreamNameLength) {
    throw badRequest(`Channel name too long (limit: ${LIMITS.maxStreamNameLength} characters).`);
  }
  const position = [...name].findIndex((ch) => /[\p{Cc}\p{Cs}\p{Cn}]/u.test(ch) || ch === '\u0000');
  if (position >= 0) throw badRequest(`Invalid character in channel name, at position ${position + 1}.`);
  return name;
}

export function checkChannelDescription(raw: string | undefined): string {
  const description = (raw ?? '').trim();
  if (description.length > LIMITS.maxStreamDescriptionLength) {
    throw badRequest(`description is too long (limit: ${LIMITS.maxStreamDescriptionLength} characters)`);
  }
  return description;
}

/** What a caller may see of a channel, given whether they are subscribed. */
export interface ChannelVisibility {
  inviteOnly: boolean;
  isWebPublic: boolean;
}

/** May the user see that the channel exists and read its metadata? (Zulip's can_access_stream_metadata.) */
export function canSeeChannel(channel: ChannelVisibility, user: { role: number }, subscribed: boolean): boolean {
  if (subscribed) return true;
  if (user.role === Role.GUEST) return channel.isWebPublic;
  return !channel.inviteOnly || user.role <= Role.ADMINISTRATOR;
}

/** May the user subscribe themself? Public channels: non-guests; private: only if already in. */
export function canJoinChannel(channel: ChannelVisibility, user: { role: number }, subscribed: boolean): boolean {
  if (subscribed) return true;
  if (channel.inviteOnly) return false;
  return user.role !== Role.GUEST;
}

/** Zulip's channel colour palette, assigned in turn to a user's new subscriptions. */
export const CHANNEL_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

export const HEX_COLOR = /^#[0-9a-fA-F]{3,6}$/;
