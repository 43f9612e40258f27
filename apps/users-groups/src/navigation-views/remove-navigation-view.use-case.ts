import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { NavigationViewsRepository } from '../data/navigation-views.repository';
import { navigationViewEvent, navigationViewNotFound } from './navigation-view-rules';

type Params = DecodedParams<typeof UsersGroups.removeNavigationViewParams>;

/**
 * DELETE /navigation_views/{fragment} (zerver/views/navigation_views.py remove_navigation_view):
 * a built-in view goes back to the client's default. The owner's clients get a remove event.
 */
@Injectable()
export class RemoveNavigationView {
  constructor(
    private readonly views: NavigationViewsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    const { fragment } = params;
    return this.outbox.runCold(async (tx) => {
      if (!(await this.views.remove(caller.id, fragment, tx))) throw navigationViewNotFound();
      return { value: {}, events: [navigationViewEvent(realm.id, caller.id, { op: 'remove', fragment })] };
    }, requestId);
  }
}
