import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { badRequest, type DecodedParams } from '@teamchat/zulip';
import { NavigationViewsRepository } from '../data/navigation-views.repository';
import { builtInViewNamed, isBuiltInView, navigationViewEvent, navigationViewExists, toNavigationViewRecord } from './navigation-view-rules';

type Params = DecodedParams<typeof UsersGroups.addNavigationViewParams>;

/**
 * POST /navigation_views (zerver/views/navigation_views.py add_navigation_view): a built-in view
 * takes no name, a custom one needs one; neither its fragment nor its name may already be one of
 * the caller's views. The owner's clients get an add event.
 */
@Injectable()
export class AddNavigationView {
  constructor(
    private readonly views: NavigationViewsRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute({ realm, user, params, requestId }: UserCommand<Params>): Promise<Record<string, never>> {
    const caller = user;
    const { fragment, is_pinned: isPinned } = params;
    const name = params.name ?? null;
    if (isBuiltInView(fragment)) {
      if (name !== null) throw builtInViewNamed();
    } else if (name === null) {
      throw badRequest('Custom views must have a valid name.');
    }

    if (await this.views.hasFragmentOrName(caller.id, fragment, name)) throw navigationViewExists();
    const view = toNavigationViewRecord({ fragment, isPinned, name });
    return this.outbox.runCold(async (tx) => {
      // The unique (user, fragment) key settles a concurrent add of the same fragment.
      if (!(await this.views.add(caller.id, { fragment, isPinned, name }, tx))) throw navigationViewExists();
      return { value: {}, events: [navigationViewEvent(realm.id, caller.id, { op: 'add', navigation_view: view })] };
    }, requestId);
  }
}
