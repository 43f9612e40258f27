import { Injectable } from '@nestjs/common';
import { Realtime } from '@teamchat/contracts';
import { toChannelFolderRecord } from '../channel-folders/channel-folder-rules';
import { ChannelFoldersRepository } from '../data/channel-folders.repository';
import { ChannelsRepository } from '../data/channels.repository';
import { MemberProfiles } from '../core/member-profiles';
import { DraftsRepository } from '../data/drafts.repository';
import { SavedSnippetsRepository } from '../data/saved-snippets.repository';
import { LinkifiersRepository } from '../data/linkifiers.repository';
import { toLinkifierRecord, toPlaygroundRecord } from '../linkifiers/linkifier-rules';
import { MutedUsersRepository } from '../data/muted-users.repository';
import { AlertWordsRepository } from '../data/alert-words.repository';
import { toSavedSnippetRecord } from '../saved-snippets/saved-snippet-rules';
import { supportedChannelPermissionSettings } from '../channels/channel-permission-settings';
import { newestDrafts } from '../drafts/list-drafts.use-case';
import { ChannelListsReader } from './channel-lists.reader';
import { MessageStateReader } from './message-state.reader';

type State = Record<string, unknown>;

/**
 * The part of POST /register's initial state messaging owns (zerver/lib/events.py
 * fetch_initial_state_data): the channel lists, channel folders, drafts, saved snippets, muted users, alert words, the newest message id, topic
 * visibility policies (and the deprecated `muted_topics`), the default channels, starred messages, recent direct
 * conversations and unread messages, the linkifiers and code playgrounds. Each part is read
 * only when its fetch key is asked for, all of them at once.
 */
@Injectable()
export class RegisterStateReader {
  constructor(
    private readonly folders: ChannelFoldersRepository,
    private readonly channelRows: ChannelsRepository,
    private readonly drafts: DraftsRepository,
    private readonly savedSnippets: SavedSnippetsRepository,
    private readonly linkifiers: LinkifiersRepository,
    private readonly mutedUsers: MutedUsersRepository,
    private readonly alertWords: AlertWordsRepository,
    private readonly profiles: MemberProfiles,
    private readonly channels: ChannelListsReader,
    private readonly messages: MessageStateReader,
  ) {}

  async read(request: Realtime.RegisterStateRequest): Promise<State> {
    const want = (key: string) => Realtime.wants(request, key);
    const { user, capabilities } = request;
    const allowEmptyTopicName = Boolean(capabilities.empty_topic_name);
    const notificationDefaults = want('subscription') && !capabilities.notification_settings_null;
    // The caller's settings matter only to these two parts, which wait for them.
    const settings = notificationDefaults || want('drafts') ? this.profiles.settingsOf(request.realm.id, user.id) : Promise.resolve(null);
    // One read of the caller's topic policies, for the parts that need them.
    let policies: ReturnType<MessageStateReader['topicPolicies']> | undefined;
    const topicPolicies = () => (policies ??= this.messages.topicPolicies(user.id));

    const parts = await Promise.all([
      want('subscription') || want('stream')
        ? settings.then((caller) =>
            this.channels.read({
              realmId: request.realm.id,
              caller: user,
              subscriptionLists: want('subscription'),
              streams: want('stream'),
              includeSubscribers: request.includeSubscribers,
              includeArchived: Boolean(capabilities.archived_channels),
              notificationDefaults: notificationDefaults ? caller : null,
            }),
          )
        : {},
      want('drafts')
        ? settings.then(async (caller) => ({
            // Turning synchronisation off deletes the stored drafts; none are served while it is off.
            drafts: caller!.enable_drafts_synchronization ? await newestDrafts(this.drafts, user.id) : [],
          }))
        : {},
      want('muted_users') ? this.mutedUsers.of(user.id).then((mutes) => ({ muted_users: mutes })) : {},
      want('alert_words') ? this.alertWords.of(user.id).then((words) => ({ alert_words: words })) : {},
      want('saved_snippets') ? this.savedSnippets.ofUser(user.id).then((rows) => ({ saved_snippets: rows.map(toSavedSnippetRecord) })) : {},
      // Archived folders too, as Zulip serves them (zerver/lib/events.py).
      want('channel_folders') ? this.folders.list(request.realm.id, true).then((folders) => ({ channel_folders: folders.map(toChannelFolderRecord) })) : {},
      want('message') ? this.messages.maxMessageId(user.id).then((id) => ({ max_message_id: id })) : {},
      want('user_topic') ? topicPolicies().then((rows) => ({ user_topics: this.messages.userTopics(rows, allowEmptyTopicName) })) : {},
      // Zulip leaves the deprecated form out for clients that ask for user_topic explicitly.
      want('muted_topics') && (request.fetchEventTypes === null || !want('user_topic'))
        ? topicPolicies().then((rows) => ({ muted_topics: this.messages.mutedTopics(rows, allowEmptyTopicName) }))
        : {},
      want('realm') ? { server_supported_permission_settings: { stream: supportedChannelPermissionSettings() } } : {},
      want('default_streams') ? this.channelRows.defaultIds(request.realm.id).then((ids) => ({ realm_default_streams: ids })) : {},
      want('starred_messages') ? this.messages.starredMessages(user.id).then((ids) => ({ starred_messages: ids })) : {},
      want('recent_private_conversations')
        ? this.messages.recentPrivateConversations(user.id).then((rows) => ({ recent_private_conversations: rows }))
        : {},
      want('message') && want('update_message_flags')
        ? this.messages.unreadMsgs(user.id, allowEmptyTopicName, topicPolicies()).then((unread) => ({ unread_msgs: unread }))
        : {},
      // Zulip serves the linkifiers only to clients that read URL templates; others get none.
      want('realm_linkifiers')
        ? capabilities.linkifier_url_template
          ? this.linkifiers.ofRealm(request.realm.id).then((rows) => ({ realm_linkifiers: rows.map(toLinkifierRecord) }))
          : { realm_linkifiers: [] }
        : {},
      want('realm_playgrounds')
        ? this.linkifiers.playgroundsOf(request.realm.id).then((rows) => ({ realm_playgrounds: rows.map(toPlaygroundRecord) }))
        : {},
    ]);
    return Object.assign({}, ...parts) as State;
  }
}
