import { Injectable } from '@nestjs/common';
import { CustomEmojiCatalogue } from './custom-emoji-catalogue';
import { MemberProfiles } from './member-profiles';
import { ChannelsRepository } from '../data/channels.repository';
import { RealmLinkifiers } from '../linkifiers/realm-linkifiers';
import { channelLinkCandidates } from '../rendering/channel-links';
import { renderMarkdown } from '../rendering/markdown';
import { groupMentionCandidates, mentionCandidates, newMentionEnv, type MentionEnv } from '../rendering/mentions';

/**
 * Markdown to HTML with the organization's people and groups for mentions, as sending renders
 * (POST /messages/render and content edits). With `checkGroupsFor`, a loud group mention the
 * user may not make is refused, and the mentioned groups' members count as mentioned.
 */
@Injectable()
export class ContentRenderer {
  constructor(
    private readonly profiles: MemberProfiles,
    private readonly channels: ChannelsRepository,
    private readonly customEmoji: CustomEmojiCatalogue,
    private readonly linkifiers: RealmLinkifiers,
  ) {}

  /** `author`: whose channel links these are (public channels and theirs link; without one, public ones only). */
  async render(realmId: number, content: string, checkGroupsFor?: number, author = checkGroupsFor): Promise<{ rendered: string; mentions: MentionEnv }> {
    const candidates = mentionCandidates(content);
    const [people, groups, channels, customEmoji, linkifiers] = await Promise.all([
      this.profiles.mentionable(realmId, candidates.names, candidates.ids),
      this.profiles.mentionableGroups(realmId, groupMentionCandidates(content)),
      this.channels.linkable(realmId, author, channelLinkCandidates(content)),
      this.customEmoji.forContent(realmId, content),
      this.linkifiers.of(realmId),
    ]);
    const mentions = newMentionEnv(people, groups.filter((group) => !group.deactivated));
    // The same env object: rendering records what it mentions in it.
    const rendered = renderMarkdown(
      content,
      Object.assign(mentions, { channels: new Map(channels.map((channel) => [channel.name.toLowerCase(), channel])), customEmoji, linkifiers }),
    );
    if (checkGroupsFor !== undefined && groups.length > 0) {
      const loud = new Set([...content.matchAll(/@\*(?!\*)([^*\n]+?)\*/g)].map((match) => match[1]));
      await this.profiles.checkGroupMentionsAllowed(checkGroupsFor, groups.filter((group) => loud.has(group.name)));
      for (const userId of await this.profiles.groupMembers([...mentions.mentionedGroupIds])) mentions.mentionedUserIds.add(userId);
    }
    return { rendered, mentions };
  }
}
