import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import type { PrismaService, RealmModel } from '@teamchat/db';
import { Role } from '@teamchat/zulip';
import type { Credentials } from './api-client';

/**
 * A fixture's password hash: argon2id at a low cost. The server verifies any argon2 hash by the
 * parameters it carries, and at the library's defaults (64 MiB, three passes) each fixture user
 * cost a tenth of a second of CPU, most of a test file's setup.
 */
const FIXTURE_HASHING = { type: argon2.argon2id, memoryCost: 4096, timeCost: 2, parallelism: 1 } as const;

export interface TestUser extends Credentials {
  id: number;
  realmId: number;
  fullName: string;
  role: number;
  password: string;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;
const apiKey = () => randomBytes(24).toString('base64').replace(/[^A-Za-z0-9]/g, '').padEnd(32, 'x').slice(0, 32);

/**
 * Test data builders: rows written straight to the test database, with only what a test
 * says differing from an ordinary account.
 */
export class Factory {
  constructor(private readonly db: PrismaService) {}

  organization(input: Partial<Pick<RealmModel, 'subdomain' | 'name' | 'enableSpectatorAccess' | 'deactivated' | 'passwordAuthEnabled'>> = {}) {
    return this.db.realm.create({
      data: {
        subdomain: input.subdomain ?? `org${unique()}`.slice(0, 40),
        name: input.name ?? 'Test organization',
        enableSpectatorAccess: input.enableSpectatorAccess ?? false,
        deactivated: input.deactivated ?? false,
        passwordAuthEnabled: input.passwordAuthEnabled ?? true,
      },
    });
  }

  async user(
    realm: { id: number },
    input: {
      role?: number;
      email?: string;
      fullName?: string;
      password?: string;
      isActive?: boolean;
      isBot?: boolean;
      botOwnerId?: number;
      settings?: Record<string, unknown>;
      timezone?: string;
    } = {},
  ): Promise<TestUser> {
    const password = input.password ?? `pw-${unique()}`;
    const key = apiKey();
    const user = await this.db.user.create({
      data: {
        realmId: realm.id,
        deliveryEmail: input.email ?? `user-${unique()}@example.test`,
        fullName: input.fullName ?? 'Test User',
        role: input.role ?? Role.MEMBER,
        isActive: input.isActive ?? true,
        isBot: input.isBot ?? false,
        botType: input.isBot ? 1 : null,
        botOwnerId: input.botOwnerId,
        timezone: input.timezone ?? '',
        settings: (input.settings ?? {}) as object,
        apiKey: { create: { key } },
        password: { create: { hash: await argon2.hash(password, FIXTURE_HASHING) } },
      },
    });
    return {
      id: user.id,
      realmId: realm.id,
      email: user.deliveryEmail,
      apiKey: key,
      fullName: user.fullName,
      role: user.role,
      password,
    };
  }

  /** A channel, with the given users subscribed. */
  async channel(
    realm: { id: number },
    input: { name?: string; inviteOnly?: boolean; historyPublicToSubscribers?: boolean; subscribers?: { id: number }[]; creator?: { id: number } } = {},
  ) {
    const channel = await this.db.stream.create({
      data: {
        realmId: realm.id,
        creatorId: input.creator?.id ?? null,
        name: input.name ?? `channel-${unique()}`,
        inviteOnly: input.inviteOnly ?? false,
        historyPublicToSubscribers: input.historyPublicToSubscribers ?? !(input.inviteOnly ?? false),
      },
    });
    for (const user of input.subscribers ?? []) await this.subscribe(user, channel);
    return channel;
  }

  /** Subscribes a user as of now (protected history starts after the newest message). */
  async subscribe(user: { id: number }, channel: { id: number }) {
    const newest = await this.db.message.aggregate({ _max: { id: true } });
    return this.db.subscription.upsert({
      where: { userId_streamId: { userId: user.id, streamId: channel.id } },
      create: { userId: user.id, streamId: channel.id, subscribedAfterMessageId: newest._max.id ?? 0 },
      update: { active: true, subscribedAfterMessageId: newest._max.id ?? 0 },
    });
  }

  /**
   * A channel message written straight to the store, with a UserMessage row for each current
   * subscriber (read for the sender). For tests that need many messages fast.
   */
  async channelMessages(
    sender: { id: number; realmId: number },
    channel: { id: number },
    topic: string,
    count = 1,
    content = (i: number) => `message ${i}`,
  ): Promise<number[]> {
    const subscribers = await this.db.subscription.findMany({ where: { streamId: channel.id, active: true }, select: { userId: true } });
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const message = await this.db.message.create({
        data: {
          realmId: sender.realmId,
          senderId: sender.id,
          streamId: channel.id,
          topic,
          content: content(i),
          renderedContent: `<p>${content(i)}</p>`,
        },
      });
      await this.db.userMessage.createMany({ data: subscribers.map(({ userId }) => ({ userId, messageId: message.id, flags: userId === sender.id ? 1 : 0 })) });
      ids.push(message.id);
    }
    const first = await this.db.message.findFirst({ where: { streamId: channel.id }, orderBy: { id: 'asc' }, select: { id: true } });
    await this.db.stream.update({ where: { id: channel.id }, data: { firstMessageId: first?.id ?? null } });
    return ids;
  }

  /** An organization with an owner, an administrator, a member and a guest. */
  async organizationWithStaff(input: Parameters<Factory['organization']>[0] = {}) {
    const realm = await this.organization(input);
    return {
      realm,
      owner: await this.user(realm, { role: Role.OWNER, fullName: 'Olivia Owner' }),
      admin: await this.user(realm, { role: Role.ADMINISTRATOR, fullName: 'Adam Admin' }),
      member: await this.user(realm, { role: Role.MEMBER, fullName: 'Mia Member' }),
      guest: await this.user(realm, { role: Role.GUEST, fullName: 'Gus Guest' }),
    };
  }

  /** A custom emoji of the organization ("realm emoji"); its id is the emoji_code statuses use. */
  customEmoji(realm: { id: number }, input: { name?: string; author?: { id: number }; deactivated?: boolean } = {}) {
    return this.db.realmEmoji.create({
      data: {
        realmId: realm.id,
        name: input.name ?? `emoji_${unique()}`.toLowerCase(),
        authorId: input.author?.id ?? null,
        fileName: `${unique()}.png`,
        deactivated: input.deactivated ?? false,
      },
    });
  }

  /** The id of one of the organization's system groups (`role:members`, …), created with it. */
  async systemGroupId(realm: { id: number }, name: string): Promise<number> {
    const group = await this.db.userGroup.findFirstOrThrow({ where: { realmId: realm.id, name, isSystemGroup: true }, select: { id: true } });
    return group.id;
  }

  /** A user-defined group with these direct members and subgroups (settings at Zulip's system-group default, role:nobody). */
  async userGroup(realm: { id: number }, input: { name?: string; members?: { id: number }[]; subgroupIds?: number[]; creator?: { id: number } } = {}) {
    const nobody = await this.systemGroupId(realm, 'role:nobody');
    return this.db.userGroup.create({
      data: {
        realmId: realm.id,
        name: input.name ?? `group ${unique()}`,
        creatorId: input.creator?.id ?? null,
        canAddMembersGroupId: nobody,
        canJoinGroupId: nobody,
        canLeaveGroupId: nobody,
        canManageGroupId: nobody,
        canMentionGroupId: nobody,
        canRemoveMembersGroupId: nobody,
        members: { create: (input.members ?? []).map((member) => ({ userId: member.id })) },
        subgroups: { create: (input.subgroupIds ?? []).map((subgroupId) => ({ subgroupId })) },
      },
    });
  }

  /** Overwrites some of a user's stored settings (the rest keep their stored or default values). */
  async userSettings(user: { id: number }, settings: Record<string, unknown>) {
    const { settings: stored } = await this.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { settings: true } });
    const current = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
    await this.db.user.update({ where: { id: user.id }, data: { settings: { ...current, ...settings } as object } });
  }
}
