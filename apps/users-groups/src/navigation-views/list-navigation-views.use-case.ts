import { Injectable } from '@nestjs/common';
import type { ApiCommand, UsersGroups } from '@teamchat/contracts';
import { PrismaService } from '@teamchat/db';
import { toNavigationViewRecord } from './navigation-view-rules';

/** GET /navigation_views: the views the caller stored, oldest first (as POST /register serves them). */
@Injectable()
export class ListNavigationViews {
  constructor(private readonly prisma: PrismaService) {}

  async execute({ user }: ApiCommand<Record<string, never>>): Promise<{ navigation_views: UsersGroups.NavigationViewRecord[] }> {
    return { navigation_views: await navigationViewsOf(this.prisma, user!.id) };
  }
}

/** A user's stored navigation views, oldest first. */
export async function navigationViewsOf(prisma: PrismaService, userId: number): Promise<UsersGroups.NavigationViewRecord[]> {
  const rows = await prisma.navigationView.findMany({ where: { userId }, orderBy: { id: 'asc' } });
  return rows.map(toNavigationViewRecord);
}
