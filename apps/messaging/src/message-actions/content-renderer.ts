import { Injectable } from '@nestjs/common';
import { MemberProfiles } from '../core/member-profiles';
import { renderMarkdown } from '../rendering/markdown';
import { groupMentionCandidates, mentionCandidates, newMentionEnv, type MentionEnv } from '../rendering/mentions';

/**
 * Markdown to HTML with the organization's people and groups for mentions, as sending renders
 * (POST /messages/render and content edits). With `checkGroupsFor`, a loud group mention the
 * user may not make is refused, and the mentioned groups' members count as mentioned.
 */
@Injectable()
export class ContentRenderer {
  constructor(private readonly profiles: MemberProfiles) {}

  async render(realmId: number, content: string, checkGroupsFor?: number): Promise<{ rendered: string; mentions: MentionEnv }> {
    const candidates = mentionCandidates(content);
    const [people, groups] = await Promise.all([
      this.profiles.mentionable(realmId, candidates.names, candidates.ids),
      this.profiles.mentionableGroups(realmId, groupMentionCandidates(content)),
    ]);
    const mentions = newMentionEnv(people, groups.filter((group) => !group.deactivated));
    const rendered = renderMarkdown(content, mentions);
    if (checkGroupsFor !== undefined && groups.length > 0) {
      const loud = new Set([...content.matchAll(/@\*(?!\*)([^*\n]+?)\*/g)].map((match) => match[1]));
      await this.profiles.checkGroupMentionsAllowed(checkGroupsFor, groups.filter((group) => loud.has(group.name)));
      for (const userId of await this.profiles.groupMembers([...mentions.mentionedGroupIds])) mentions.mentionedUserIds.add(userId);
    }
    return { rendered, mentions };
  }
}
