import { notificationsFor, type RecipientFacts } from './notification-rules';

const settings: RecipientFacts['settings'] = {
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_offline_email_notifications: true,
  enable_stream_push_notifications: false,
  enable_stream_email_notifications: false,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_email_notifications: true,
  wildcard_mentions_notify: true,
  enable_followed_topic_wildcard_mentions_notify: true,
};
const recipient = (over: Partial<RecipientFacts> = {}): RecipientFacts => ({
  userId: 2,
  isActive: true,
  isBot: false,
  flags: 0,
  clientOpen: false,
  settings,
  subscription: { isMuted: false, pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null },
  visibility: 0,
  ...over,
});
const dm = { senderId: 1, isDirect: true };
const channel = { senderId: 1, isDirect: false };

describe('notificationsFor (Zulip’s notification triggers)', () => {
  it('notifies a direct message by push and email when off the app', () => {
    expect(notificationsFor(dm, recipient({ subscription: undefined, visibility: undefined }))).toEqual({ push: 'private_message', email: 'private_message' });
  });

  it('never notifies the sender, a bot or a deactivated user', () => {
    for (const facts of [recipient({ userId: 1 }), recipient({ isBot: true }), recipient({ isActive: false })]) {
      expect(notificationsFor(dm, facts)).toEqual({ push: null, email: null });
    }
  });

  it('with a client open: push only with enable_online_push_notifications, never email', () => {
    expect(notificationsFor(dm, recipient({ clientOpen: true }))).toEqual({ push: 'private_message', email: null });
    expect(notificationsFor(dm, recipient({ clientOpen: true, settings: { ...settings, enable_online_push_notifications: false } }))).toEqual({ push: null, email: null });
  });

  it('follows the personal settings for direct messages and mentions', () => {
    const off = { ...settings, enable_offline_push_notifications: false, enable_offline_email_notifications: false };
    expect(notificationsFor(dm, recipient({ settings: off }))).toEqual({ push: null, email: null });
    expect(notificationsFor(channel, recipient({ flags: 8, settings: off }))).toEqual({ push: null, email: null });
  });

  it('a personal mention notifies even in a muted topic (as in Zulip); a wildcard does not', () => {
    expect(notificationsFor(channel, recipient({ flags: 8, visibility: 1 }))).toEqual({ push: 'mentioned', email: 'mentioned' });
    expect(notificationsFor(channel, recipient({ flags: 16, visibility: 1 }))).toEqual({ push: null, email: null });
    expect(notificationsFor(channel, recipient({ flags: 16 }))).toEqual({ push: 'stream_wildcard_mentioned', email: 'stream_wildcard_mentioned' });
    expect(notificationsFor(channel, recipient({ flags: 32, visibility: 3 }))).toEqual({
      push: 'topic_wildcard_mentioned_in_followed_topic',
      email: 'topic_wildcard_mentioned_in_followed_topic',
    });
  });

  it('channel notifications: the subscription’s own setting over the global one, none when muted unless the topic is unmuted', () => {
    expect(notificationsFor(channel, recipient())).toEqual({ push: null, email: null });
    const on = { isMuted: false, pushNotifications: true, emailNotifications: null, wildcardMentionsNotify: null };
    expect(notificationsFor(channel, recipient({ subscription: on }))).toEqual({ push: 'stream_push_notify', email: null });
    expect(notificationsFor(channel, recipient({ subscription: { ...on, isMuted: true } }))).toEqual({ push: null, email: null });
    expect(notificationsFor(channel, recipient({ subscription: { ...on, isMuted: true }, visibility: 2 }))).toEqual({ push: 'stream_push_notify', email: null });
    expect(notificationsFor(channel, recipient({ settings: { ...settings, enable_stream_email_notifications: true } }))).toEqual({ push: null, email: 'stream_email_notify' });
  });

  it('a followed topic notifies by its own settings', () => {
    expect(notificationsFor(channel, recipient({ visibility: 3 }))).toEqual({ push: 'followed_topic_push_notify', email: 'followed_topic_email_notify' });
    const off = { ...settings, enable_followed_topic_push_notifications: false };
    expect(notificationsFor(channel, recipient({ visibility: 3, settings: off }))).toEqual({ push: null, email: 'followed_topic_email_notify' });
  });
});
