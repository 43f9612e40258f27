import { Injectable } from '@nestjs/common';
import type { UserCommand, UsersGroups } from '@teamchat/contracts';
import { NavigationViewsRepository } from '../data/navigation-views.repository';
import { toNavigationViewRecord } from './navigation-view-rules';

/** GET /navigation_views: the views the caller stored, oldest first (as POST /register serves them). */
@Injectable()
export class ListNavigationViews {
  constructor(private readonly views: NavigationViewsRepository) {}

  async execute({ user }: UserCommand<Record<string, never>>): Promise<{ navigation_views: UsersGroups.NavigationViewRecord[] }> {
    return { navigation_views: await navigationViewsOf(this.views, user.id) };
  }
}

/** A user's stored navigation views, oldest first. */
export async function navigationViewsOf(views: NavigationViewsRepository, userId: number): Promise<UsersGroups.NavigationViewRecord[]> {
  return (await views.ofUser(userId)).map(toNavigationViewRecord);
}
