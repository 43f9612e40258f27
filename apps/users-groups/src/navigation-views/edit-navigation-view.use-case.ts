import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import type { DecodedParams } from '@teamchat/zulip';
import { NavigationViewsRepository } from '../data/navigation-views.repository';
import { builtInViewNamed, isBuiltInView, navigationViewEvent, navigationViewExists, navigationViewNotFound } from './navigation-view-rules';

type Params = DecodedParams<typeof UsersGroups.editNavigationViewParams>;

/**
 * PATCH /navigation_views/{fragment} (zerver/views/navigation_views.py update_navigation_view),
 * in Zulip's order: a name for a built-in view, then a name one of the caller's views already
 * has (its own included), then a view the caller never stored (404, even a built-in one: the
 * first setting of those is a POST). Only the passed keys change; the owner's clients get them
 * as an update event (with nothing passed, an empty one, as from Zulip).
 */
@Injectable()
export class EditNavigationView {
  constructor(
    private readonly views: NavigationViewsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    const { fragment, name, is_pinned: isPinned } = params;
    if (name !== undefined) {
      if (isBuiltInView(fragment)) throw builtInViewNamed();
      if (await this.views.hasName(caller.id, name)) throw navigationViewExists();
    }

    const data = { ...(name !== undefined ? { name } : {}), ...(isPinned !== undefined ? { is_pinned: isPinned } : {}) };
    return this.outbox.runCold(async (tx) => {
      const updated = await this.views.update(
        caller.id,
        fragment,
        { ...(name !== undefined ? { name } : {}), ...(isPinned !== undefined ? { isPinned } : {}) },
        tx,
      );
      if (!updated) throw navigationViewNotFound();
      return { value: {}, events: [navigationViewEvent(realm.id, caller.id, { op: 'update', fragment, data })] };
    }, requestId);
  }
}
