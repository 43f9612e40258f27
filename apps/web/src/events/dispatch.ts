import type { QueryClient } from '@tanstack/react-query';
import type { ChannelFolder, Draft, GroupSettingValue, Linkifier, Message, NavigationView, Playground, Presence, ProfileField, Reaction, RealmBot, RealmEmoji, RealmExport, Reminder, SavedSnippet, ScheduledMessage, ServerEvent, Submessage, Subscription, User, UserGroup, UserStatus } from '../api/types';
import { inNarrow, narrowIdentity, type Narrow } from '../narrow/narrow';
import { chatState, conversationKey, sortFields, sortFolders, topicKey, updateChatState, type RealmDomain } from './chat-state';
import { typingInDm, typingInTopic, typingStarted, typingStopped } from './typing';

/** The messages of a narrow as the cache holds them (oldest first). */
export interface MessagePage {
  messages: Message[];
  foundOldest: boolean;
}

export const messagesKey = (narrow: Narrow) => ['messages', narrowIdentity(narrow)] as const;

/** A channel's topics, newest first (GET /users/me/{stream_id}/topics). */
export interface Topic {
  name: string;
  max_id: number;
}
export const topicsKey = (channelId: number) => ['topics', channelId] as const;

/** The pending invitations (GET /invites), read again on `invites_changed`. */
export const INVITES = ['invites'] as const;
/** The organization's data exports (GET /export/realm), replaced by each `realm_export` event. */
export const EXPORTS = ['exports'] as const;

/** Changes the cached messages that `which` picks, in every list they are in. */
function updateMessages(client: QueryClient, which: (message: Message) => boolean, change: (message: Message) => Message): void {
  for (const [key, page] of client.getQueriesData<MessagePage>({ queryKey: ['messages'] })) {
    if (!page || !page.messages.some(which)) continue;
    client.setQueryData<MessagePage>(key, { ...page, messages: page.messages.map((m) => (which(m) ? change(m) : m)) });
  }
  for (let i = 0; i < recentLive.length; i++) if (which(recentLive[i])) recentLive[i] = change(recentLive[i]);
}

/**
 * The latest live messages, for a fetch that was under way when they arrived: the dispatcher
 * could not add them to a list not loaded yet, and the fetch may have read the store before they
 * were in it (see liveMessagesAfter).
 */
const recentLive: Message[] = [];
const RECENT_LIVE = 500;

/** Live messages newer than `id` that belong in `narrow`, oldest first. */
export function liveMessagesAfter(id: number, narrow: Narrow, myId: number): Message[] {
  return recentLive.filter((message) => message.id > id && inNarrow(narrow, message, myId));
}

/**
 * The one place server events change the client's state (Zulip's server_events_dispatch): the
 * cached message lists, the chat state (channels, people, unread) and who is typing. Nothing
 * refetches what an event already says.
 */
export function dispatch(client: QueryClient, event: ServerEvent): void {
  const state = chatState(client);
  if (!state) return;
  const myId = state.me.user_id;
  switch (event.type) {
    case 'message': {
      const message = { ...(event.message as Message), flags: (event.flags as string[] | undefined) ?? [] };
      recentLive.push(message);
      if (recentLive.length > RECENT_LIVE) recentLive.shift();
      for (const [key, page] of client.getQueriesData<MessagePage>({ queryKey: ['messages'] })) {
        const narrow = key[1] as Narrow;
        if (!page || !inNarrow(narrow, message, myId) || page.messages.some((m) => m.id === message.id)) continue;
        client.setQueryData<MessagePage>(key, { ...page, messages: [...page.messages, message] });
      }
      if (message.type === 'stream') {
        const topics = client.getQueryData<Topic[]>(topicsKey(message.stream_id ?? 0));
        if (topics) {
          const others = topics.filter((topic) => topic.name.toLowerCase() !== message.subject.toLowerCase());
          client.setQueryData<Topic[]>(topicsKey(message.stream_id ?? 0), [{ name: message.subject, max_id: message.id }, ...others]);
        }
      }
      if (!message.flags.includes('read') && message.sender_id !== myId) {
        updateChatState(client, (s) => ({
          ...s,
          unread: { ...s.unread, [message.id]: conversationKey(message, myId) },
          topicNames: message.type === 'stream' ? { ...s.topicNames, [conversationKey(message, myId)]: message.subject } : s.topicNames,
        }));
      }
      // A message ends its sender's typing notice.
      if (message.type === 'stream') typingStopped(typingInTopic(message.stream_id ?? 0, message.subject), message.sender_id);
      else typingStopped(typingInDm([message.sender_id]), message.sender_id);
      return;
    }
    case 'update_message_flags': {
      const flag = String(event.flag);
      const ids = new Set((event.messages as number[] | undefined) ?? []);
      updateMessages(client, (m) => ids.has(m.id) || (event.all === true && event.op === 'add'), (m) => {
        const flags = (m.flags ?? []).filter((f) => f !== flag);
        return { ...m, flags: event.op === 'add' ? [...flags, flag] : flags };
      });
      if (flag === 'starred') void client.invalidateQueries({ queryKey: messagesKey({ kind: 'search', terms: [{ operator: 'is', operand: 'starred' }] }) });
      if (flag !== 'read' || event.op !== 'add') return;
      updateChatState(client, (s) => {
        if (event.all) return { ...s, unread: {} };
        const unread = { ...s.unread };
        for (const id of (event.messages as number[]) ?? []) delete unread[id];
        return { ...s, unread };
      });
      return;
    }
    case 'delete_message': {
      const ids = new Set<number>((event.message_ids as number[] | undefined) ?? (event.message_id !== undefined ? [event.message_id as number] : []));
      for (const [key, page] of client.getQueriesData<MessagePage>({ queryKey: ['messages'] })) {
        if (page) client.setQueryData<MessagePage>(key, { ...page, messages: page.messages.filter((m) => !ids.has(m.id)) });
      }
      updateChatState(client, (s) => ({ ...s, unread: Object.fromEntries(Object.entries(s.unread).filter(([id]) => !ids.has(Number(id)))) }));
      return;
    }
    case 'reaction': {
      const reaction = { emoji_name: String(event.emoji_name), emoji_code: String(event.emoji_code), reaction_type: String(event.reaction_type), user_id: Number(event.user_id) };
      const same = (r: Reaction) => r.user_id === reaction.user_id && r.emoji_code === reaction.emoji_code && r.reaction_type === reaction.reaction_type;
      updateMessages(client, (m) => m.id === event.message_id, (m) => {
        const others = (m.reactions ?? []).filter((r) => !same(r));
        return { ...m, reactions: event.op === 'add' ? [...others, reaction] : others };
      });
      return;
    }
    case 'update_message': {
      const ids = new Set((event.message_ids as number[] | undefined) ?? [event.message_id as number]);
      updateMessages(client, (m) => ids.has(m.id), (m) => {
        const changed: Message = { ...m };
        if (m.id === event.message_id && typeof event.rendered_content === 'string') {
          changed.content = event.rendered_content;
          changed.last_edit_timestamp = event.edit_timestamp as number;
        }
        if (typeof event.subject === 'string') changed.subject = event.subject;
        if (typeof event.new_stream_id === 'number') changed.stream_id = event.new_stream_id;
        return changed;
      });
      // A moved message may leave (or join) what is on screen: those lists are fetched again.
      if (typeof event.subject === 'string' || typeof event.new_stream_id === 'number') {
        void client.invalidateQueries({ queryKey: ['messages'] });
        void client.invalidateQueries({ queryKey: ['topics'] });
      }
      return;
    }
    case 'drafts': {
      updateChatState(client, (s) => {
        if (event.op === 'add') {
          const added = event.drafts as Draft[];
          return { ...s, drafts: [...s.drafts.filter((d) => !added.some((a) => a.id === d.id)), ...added] };
        }
        if (event.op === 'update') {
          const draft = event.draft as Draft;
          return { ...s, drafts: s.drafts.map((d) => (d.id === draft.id ? draft : d)) };
        }
        if (event.op === 'remove') return { ...s, drafts: s.drafts.filter((d) => d.id !== event.draft_id) };
        return s;
      });
      return;
    }
    case 'scheduled_messages': {
      updateChatState(client, (s) => {
        const id = (m: ScheduledMessage) => m.scheduled_message_id;
        if (event.op === 'add') {
          const added = event.scheduled_messages as ScheduledMessage[];
          return { ...s, scheduled: [...s.scheduled.filter((m) => !added.some((a) => id(a) === id(m))), ...added] };
        }
        if (event.op === 'update') {
          const changed = event.scheduled_message as ScheduledMessage;
          return { ...s, scheduled: s.scheduled.map((m) => (id(m) === id(changed) ? changed : m)) };
        }
        if (event.op === 'remove') return { ...s, scheduled: s.scheduled.filter((m) => id(m) !== event.scheduled_message_id) };
        return s;
      });
      return;
    }
    case 'user_topic': {
      const key = topicKey(Number(event.stream_id), String(event.topic_name));
      updateChatState(client, (s) => {
        const topicPolicies = { ...s.topicPolicies };
        if (event.visibility_policy === 0) delete topicPolicies[key];
        else topicPolicies[key] = Number(event.visibility_policy);
        return { ...s, topicPolicies };
      });
      return;
    }
    case 'user_settings': {
      if (event.op !== 'update') return;
      const property = String(event.property);
      updateChatState(client, (s) => ({
        ...s,
        settings: { ...s.settings, [property]: event.value },
        colorScheme: property === 'color_scheme' ? Number(event.value) : s.colorScheme,
      }));
      return;
    }
    case 'subscription': {
      if (event.op === 'add') {
        const added = event.subscriptions as Subscription[];
        updateChatState(client, (s) => ({
          ...s,
          subscriptions: [...s.subscriptions.filter((sub) => !added.some((a) => a.stream_id === sub.stream_id)), ...added].sort((a, b) => a.name.localeCompare(b.name)),
        }));
      } else if (event.op === 'remove') {
        const removed = new Set((event.subscriptions as { stream_id: number }[]).map((sub) => sub.stream_id));
        updateChatState(client, (s) => ({ ...s, subscriptions: s.subscriptions.filter((sub) => !removed.has(sub.stream_id)) }));
      } else if (event.op === 'update') {
        const property = String(event.property);
        updateChatState(client, (s) => ({
          ...s,
          subscriptions: s.subscriptions.map((sub) => (sub.stream_id === event.stream_id ? { ...sub, [property]: event.value } : sub)),
        }));
      }
      return;
    }
    case 'realm_user_settings_defaults': {
      if (event.op === 'update') updateChatState(client, (s) => ({ ...s, realmDefaults: { ...s.realmDefaults, [String(event.property)]: event.value } }));
      return;
    }
    case 'channel_folder': {
      updateChatState(client, (s) => {
        if (event.op === 'add') {
          const folder = event.channel_folder as ChannelFolder;
          return { ...s, folders: sortFolders([...s.folders.filter((f) => f.id !== folder.id), folder]) };
        }
        if (event.op === 'update') {
          const data = event.data as Partial<ChannelFolder>;
          return { ...s, folders: s.folders.map((f) => (f.id === event.channel_folder_id ? { ...f, ...data } : f)) };
        }
        if (event.op === 'reorder') {
          const order = event.order as number[];
          return { ...s, folders: sortFolders(s.folders.map((f) => ({ ...f, order: order.indexOf(f.id) }))) };
        }
        return s;
      });
      return;
    }
    case 'navigation_view': {
      updateChatState(client, (s) => {
        if (event.op === 'add') {
          const view = event.navigation_view as NavigationView;
          return { ...s, navigationViews: [...s.navigationViews.filter((v) => v.fragment !== view.fragment), view] };
        }
        if (event.op === 'update') {
          const data = event.data as Partial<NavigationView>;
          return { ...s, navigationViews: s.navigationViews.map((v) => (v.fragment === event.fragment ? { ...v, ...data } : v)) };
        }
        if (event.op === 'remove') return { ...s, navigationViews: s.navigationViews.filter((v) => v.fragment !== event.fragment) };
        return s;
      });
      return;
    }
    case 'stream': {
      // The administrators' channel list (GET /streams, when loaded) follows too.
      if (event.op === 'update') {
        client.setQueryData<Record<string, unknown>[]>(['streams'], (list) =>
          list?.map((channel) => (channel.stream_id === event.stream_id ? { ...channel, [String(event.property)]: event.value } : channel)),
        );
      } else void client.invalidateQueries({ queryKey: ['streams'] });
      if (event.op === 'update' && (event.property === 'name' || event.property === 'folder_id')) {
        const property = String(event.property);
        updateChatState(client, (s) => ({
          ...s,
          subscriptions: s.subscriptions
            .map((sub) => (sub.stream_id === event.stream_id ? { ...sub, [property]: event.value } : sub))
            .sort((a, b) => a.name.localeCompare(b.name)),
        }));
      }
      return;
    }
    case 'muted_users': {
      const muted = (event.muted_users as { id: number; timestamp: number }[]) ?? [];
      updateChatState(client, (s) => ({ ...s, mutedUsers: Object.fromEntries(muted.map((m) => [m.id, m.timestamp])) }));
      return;
    }
    case 'alert_words': {
      updateChatState(client, (s) => ({ ...s, alertWords: (event.alert_words as string[]) ?? [] }));
      return;
    }
    case 'saved_snippets': {
      updateChatState(client, (s) => {
        if (event.op === 'add' || event.op === 'update') {
          const snippet = event.saved_snippet as SavedSnippet;
          const others = s.savedSnippets.filter((x) => x.id !== snippet.id);
          return { ...s, savedSnippets: event.op === 'add' ? [...others, snippet] : s.savedSnippets.map((x) => (x.id === snippet.id ? snippet : x)) };
        }
        if (event.op === 'remove') return { ...s, savedSnippets: s.savedSnippets.filter((x) => x.id !== event.saved_snippet_id) };
        return s;
      });
      return;
    }
    case 'realm_emoji': {
      if (event.op === 'update') updateChatState(client, (s) => ({ ...s, realmEmoji: (event.realm_emoji as Record<string, RealmEmoji>) ?? {} }));
      return;
    }
    case 'realm_linkifiers': {
      updateChatState(client, (s) => ({ ...s, linkifiers: (event.realm_linkifiers as Linkifier[]) ?? [] }));
      return;
    }
    case 'realm_playgrounds': {
      updateChatState(client, (s) => ({ ...s, playgrounds: (event.realm_playgrounds as Playground[]) ?? [] }));
      return;
    }
    case 'custom_profile_fields': {
      updateChatState(client, (s) => ({ ...s, profileFields: sortFields((event.fields as ProfileField[]) ?? []) }));
      return;
    }
    case 'realm': {
      // The realm settings the app reads; the rest come with the realm settings pages.
      const data: Record<string, unknown> = event.op === 'update' ? { [String(event.property)]: event.value } : event.op === 'update_dict' ? ((event.data as Record<string, unknown>) ?? {}) : {};
      updateChatState(client, (s) => ({
        ...s,
        readReceipts: typeof data.enable_read_receipts === 'boolean' ? data.enable_read_receipts : s.readReceipts,
        addEmojiGroup: data.can_add_custom_emoji_group !== undefined ? (data.can_add_custom_emoji_group as GroupSettingValue) : s.addEmojiGroup,
        allowEditing: typeof data.allow_message_editing === 'boolean' ? data.allow_message_editing : s.allowEditing,
        inviteUsersGroup: data.can_invite_users_group !== undefined ? (data.can_invite_users_group as GroupSettingValue) : s.inviteUsersGroup,
        createMultiuseInviteGroup: data.create_multiuse_invite_group !== undefined ? (data.create_multiuse_invite_group as GroupSettingValue) : s.createMultiuseInviteGroup,
        createBotsGroup: data.can_create_bots_group !== undefined ? (data.can_create_bots_group as GroupSettingValue) : s.createBotsGroup,
        createWriteOnlyBotsGroup: data.can_create_write_only_bots_group !== undefined ? (data.can_create_write_only_bots_group as GroupSettingValue) : s.createWriteOnlyBotsGroup,
        moveTopicsGroup: data.can_move_messages_between_topics_group !== undefined ? (data.can_move_messages_between_topics_group as GroupSettingValue) : s.moveTopicsGroup,
        moveChannelsGroup: data.can_move_messages_between_channels_group !== undefined ? (data.can_move_messages_between_channels_group as GroupSettingValue) : s.moveChannelsGroup,
        realmName: typeof data.name === 'string' ? data.name : s.realmName,
        // Every setting, for the organization settings pages (register's realm_<name>, by name).
        realm: { ...s.realm, ...data },
      }));
      return;
    }
    case 'realm_domains': {
      updateChatState(client, (s) => {
        const domain = (event.realm_domain as RealmDomain | undefined) ?? { domain: String(event.domain), allow_subdomains: false };
        const others = s.realmDomains.filter((d) => d.domain !== domain.domain);
        if (event.op === 'remove') return { ...s, realmDomains: others };
        if (event.op === 'add') return { ...s, realmDomains: [...others, domain] };
        if (event.op === 'change') return { ...s, realmDomains: s.realmDomains.map((d) => (d.domain === domain.domain ? domain : d)) };
        return s;
      });
      return;
    }
    case 'realm_user': {
      const person = event.person as Partial<User> & { user_id: number; custom_profile_field?: { id: number; value: string | null; rendered_value?: string } };
      if (event.op === 'update' && person.custom_profile_field) {
        const field = person.custom_profile_field;
        updateChatState(client, (s) => {
          const user = s.users[person.user_id];
          if (!user) return s;
          const profile = { ...user.profile_data };
          if (field.value === null) delete profile[field.id];
          else profile[field.id] = { value: field.value, ...(field.rendered_value !== undefined ? { rendered_value: field.rendered_value } : {}) };
          return { ...s, users: { ...s.users, [person.user_id]: { ...user, profile_data: profile } } };
        });
        return;
      }
      if (event.op === 'add') updateChatState(client, (s) => ({ ...s, users: { ...s.users, [person.user_id]: person as User } }));
      else if (event.op === 'remove') {
        // The person is hidden from us now (a guest who stopped sharing a channel with them): as
        // Zulip's web app, we keep them only as the "Unknown user" the event names, out of every
        // list of people (user_list_incomplete: the ones hidden at registration never came).
        updateChatState(client, (s) => {
          const { [person.user_id]: known, ...others } = s.users;
          if (!known) return s;
          return { ...s, users: { ...others, [person.user_id]: { user_id: person.user_id, full_name: person.full_name ?? known.full_name, email: '', is_active: false, is_bot: false } } };
        });
      } else if (event.op === 'update') {
        const change: Partial<User> = person;
        updateChatState(client, (st) => ({
          ...st,
          users: st.users[person.user_id] ? { ...st.users, [person.user_id]: { ...st.users[person.user_id], ...change } } : st.users,
          deliveryEmail: person.user_id === myId && typeof person.delivery_email === 'string' ? person.delivery_email : st.deliveryEmail,
          avatarUrl: person.user_id === myId && typeof person.avatar_url === 'string' ? person.avatar_url : st.avatarUrl,
          me:
            person.user_id === myId
              ? { ...st.me, ...(change.full_name !== undefined ? { full_name: change.full_name } : {}), ...(change.role !== undefined ? { isAdmin: change.role <= 200, isOwner: change.role === 100, isGuest: change.role === 600 } : {}) }
              : st.me,
        }));
      }
      return;
    }
    case 'user_group': {
      updateChatState(client, (s) => {
        const change = (id: number, edit: (group: UserGroup) => UserGroup) => s.groups.map((group) => (group.id === id ? edit(group) : group));
        switch (event.op) {
          case 'add': {
            const group = event.group as UserGroup;
            return { ...s, groups: [...s.groups.filter((g) => g.id !== group.id), group] };
          }
          case 'update': {
            const data = event.data as Partial<UserGroup>;
            const groups = change(Number(event.group_id), (group) => ({ ...group, ...data }));
            return { ...s, groups: groups.filter((group) => !group.deactivated) };
          }
          case 'remove':
            return { ...s, groups: s.groups.filter((group) => group.id !== event.group_id) };
          case 'add_members':
          case 'remove_members': {
            const ids = new Set(event.user_ids as number[]);
            const adding = event.op === 'add_members';
            return {
              ...s,
              groups: change(Number(event.group_id), (group) => ({
                ...group,
                members: adding ? [...group.members.filter((id) => !ids.has(id)), ...ids] : group.members.filter((id) => !ids.has(id)),
              })),
            };
          }
          default:
            return s;
        }
      });
      return;
    }
    case 'realm_bot': {
      const bot = event.bot as Partial<RealmBot> & { user_id: number };
      updateChatState(client, (s) => {
        if (event.op === 'add') return { ...s, bots: [...s.bots.filter((b) => b.user_id !== bot.user_id), bot as RealmBot] };
        if (event.op === 'update') return { ...s, bots: s.bots.map((b) => (b.user_id === bot.user_id ? { ...b, ...bot } : b)) };
        // `delete`: the bot is no longer mine to administer (another owner); `remove` (older servers): deactivated.
        if (event.op === 'delete') return { ...s, bots: s.bots.filter((b) => b.user_id !== bot.user_id) };
        if (event.op === 'remove') return { ...s, bots: s.bots.map((b) => (b.user_id === bot.user_id ? { ...b, is_active: false } : b)) };
        return s;
      });
      return;
    }
    case 'invites_changed': {
      // Zulip's event says only that something changed: the list shown is read again.
      void client.invalidateQueries({ queryKey: INVITES });
      return;
    }
    case 'realm_export': {
      client.setQueryData<RealmExport[]>(EXPORTS, (event.exports as RealmExport[]) ?? []);
      return;
    }
    case 'reminders': {
      updateChatState(client, (s) => {
        if (event.op === 'add') {
          const added = event.reminders as Reminder[];
          return { ...s, reminders: [...s.reminders.filter((r) => !added.some((a) => a.reminder_id === r.reminder_id)), ...added] };
        }
        if (event.op === 'remove') return { ...s, reminders: s.reminders.filter((r) => r.reminder_id !== event.reminder_id) };
        return s;
      });
      return;
    }
    case 'submessage': {
      const submessage: Submessage = {
        id: Number(event.submessage_id),
        message_id: Number(event.message_id),
        sender_id: Number(event.sender_id),
        msg_type: String(event.msg_type),
        content: String(event.content),
      };
      updateMessages(
        client,
        (m) => m.id === submessage.message_id && !(m.submessages ?? []).some((sub) => sub.id === submessage.id),
        (m) => ({ ...m, submessages: [...(m.submessages ?? []), submessage] }),
      );
      return;
    }
    case 'presence': {
      const presences = (event.presences as Record<string, Presence> | undefined) ?? {};
      updateChatState(client, (s) => ({ ...s, presences: { ...s.presences, ...Object.fromEntries(Object.entries(presences).map(([id, p]) => [Number(id), p])) } }));
      return;
    }
    case 'user_status': {
      const userId = Number(event.user_id);
      const change: UserStatus = {};
      for (const key of ['status_text', 'emoji_name', 'emoji_code', 'reaction_type', 'away'] as const) {
        if (event[key] !== undefined) (change as Record<string, unknown>)[key] = event[key];
      }
      updateChatState(client, (s) => ({ ...s, statuses: { ...s.statuses, [userId]: { ...s.statuses[userId], ...change } } }));
      return;
    }
    case 'typing': {
      const sender = (event.sender as { user_id: number }).user_id;
      if (sender === myId) return;
      const conversation =
        event.message_type === 'stream'
          ? typingInTopic(event.stream_id as number, String(event.topic ?? ''))
          : typingInDm(((event.recipients as { user_id: number }[]) ?? []).map((r) => r.user_id).filter((id) => id !== myId));
      if (event.op === 'start') typingStarted(conversation, sender);
      else typingStopped(conversation, sender);
      return;
    }
    default:
      return; // heartbeat, and what this first version does not show yet
  }
}
