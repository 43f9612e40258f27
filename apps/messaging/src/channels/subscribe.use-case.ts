import { Injectable } from '@nestjs/common';
import type { ApiCommand, Messaging, SubscribeResult } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { Role, badRequest, type DecodedParams } from '@teamchat/zulip';
import { UserDirectoryReadonly, type DirectoryUser } from '../core/user-directory.readonly';
import { renderDescription } from './channel-description';
import { CHANNEL_COLORS, canJoinChannel, checkChannelDescription, checkChannelName } from './channel-rules';
import { resolvePrincipals } from './principals';

type Params = DecodedParams<typeof Messaging.subscribeParams>;

/**
 * POST /users/me/subscriptions (zerver/views/streams.py add_subscriptions_backend): creates
 * the channels that do not exist, then subscribes the principals (the caller by default).
 */
@Injectable()
export class Subscribe {
  constructor(
    private readonly prisma: PrismaService,
    private readonly users: UserDirectoryReadonly,
  ) {}

  async execute({ realm, user, params }: ApiCommand<Params>): Promise<SubscribeResult> {
    const caller = user!;
    const requests = params.subscriptions.map((request) => ({
      name: checkChannelName(request.name),
      description: checkChannelDescription(request.description),
    }));
    const principals = await resolvePrincipals(this.users, realm.id, caller, params.principals);
    const othersIncluded = principals.some((p) => p.id !== caller.id);
    if (othersIncluded && caller.role === Role.GUEST) throw badRequest('Insufficient permission');
    if (params.is_web_public && caller.role > Role.ADMINISTRATOR) throw badRequest('Insufficient permission');

    const existing = await this.prisma.stream.findMany({
      where: { realmId: realm.id, isArchived: false, OR: requests.map((r) => ({ name: { equals: r.name, mode: 'insensitive' as const } })) },
      include: { subscriptions: { where: { userId: caller.id, active: true }, select: { id: true } } },
    });
    const byName = new Map(existing.map((channel) => [channel.name.toLowerCase(), channel]));
    const toCreate = requests.filter((r) => !byName.has(r.name.toLowerCase()));
    if (toCreate.length > 0 && caller.role === Role.GUEST) throw badRequest('Insufficient permission');

    const unauthorized = existing
      .filter((channel) => !canJoinChannel(channel, caller, channel.subscriptions.length > 0))
      .filter((channel) => !(channel.inviteOnly && caller.role <= Role.ADMINISTRATOR && othersIncluded))
      .map((channel) => channel.name);
    if (unauthorized.length > 0 && params.authorization_errors_fatal) {
      throw badRequest(`Unable to access channel (${unauthorized[0]}).`);
    }

    const inviteOnly = params.invite_only;
    const historyPublic = inviteOnly ? (params.history_public_to_subscribers ?? false) : true;
    return this.prisma.$transaction(async (tx) => {
      const channels = [...existing.filter((c) => !unauthorized.includes(c.name))];
      for (const request of toCreate) {
        channels.push(
          await tx.stream.create({
            data: {
              realmId: realm.id,
              name: request.name,
              description: request.description,
              renderedDescription: renderDescription(request.description),
              inviteOnly,
              isWebPublic: params.is_web_public,
              historyPublicToSubscribers: historyPublic,
              creatorId: caller.id,
            },
            include: { subscriptions: { where: { id: -1 }, select: { id: true } } },
          }),
        );
      }
      const newest = await tx.message.aggregate({ where: { realmId: realm.id }, _max: { id: true } });
      const subscribed: Record<string, string[]> = {};
      const already: Record<string, string[]> = {};
      for (const principal of principals) {
        const current = await tx.subscription.findMany({ where: { userId: principal.id, active: true }, select: { streamId: true } });
        const active = new Set(current.map((s) => s.streamId));
        let colorIndex = current.length;
        for (const channel of channels) {
          const target = active.has(channel.id) ? already : subscribed;
          (target[String(principal.id)] ??= []).push(channel.name);
          if (active.has(channel.id)) continue;
          await tx.subscription.upsert({
            where: { userId_streamId: { userId: principal.id, streamId: channel.id } },
            create: {
              userId: principal.id,
              streamId: channel.id,
              color: CHANNEL_COLORS[colorIndex++ % CHANNEL_COLORS.length],
              subscribedAfterMessageId: newest._max.id ?? 0,
            },
            update: { active: true, subscribedAfterMessageId: newest._max.id ?? 0, dateSubscribed: new Date() },
          });
        }
      }
      return { subscribed, already_subscribed: already, ...(unauthorized.length ? { unauthorized } : {}) };
    });
  }
}

export type { DirectoryUser };
