import { Injectable } from '@nestjs/common';
import type { ApiCommand, UsersGroups } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { EventBus } from '@teamchat/platform';
import type { DecodedParams } from '@teamchat/zulip';
import { navigationViewEvent, navigationViewNotFound } from './navigation-view-rules';

type Params = DecodedParams<typeof UsersGroups.removeNavigationViewParams>;

/**
 * DELETE /navigation_views/{fragment} (zerver/views/navigation_views.py remove_navigation_view):
 * a built-in view goes back to the client's default. The owner's clients get a remove event.
 */
@Injectable()
export class RemoveNavigationView {
  constructor(
    private readonly prisma: PrismaService,
    private readonly events: EventBus,
  ) {}

  async execute({ realm, user, params, requestId }: ApiCommand<Params>): Promise<Record<string, never>> {
    const caller = user!;
    const { fragment } = params;
    const { count } = await this.prisma.navigationView.deleteMany({ where: { userId: caller.id, fragment } });
    if (count === 0) throw navigationViewNotFound();

    await this.events.publishAll([navigationViewEvent(realm.id, caller.id, { op: 'remove', fragment })], requestId);
    return {};
  }
}
