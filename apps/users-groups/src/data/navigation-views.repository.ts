import { Injectable } from '@nestjs/common';
import { PgService, Prisma, PrismaService, columnsOf, statement, type NavigationViewModel } from '@teamchat/db';
import type { Transaction } from './transactions';

/** A user's stored view (the table's row without its id). */
export type StoredNavigationView = Pick<NavigationViewModel, 'fragment' | 'isPinned' | 'name'>;

/** The user's views, every column, oldest first. */
const viewsOfUser = statement<NavigationViewModel, [userId: number]>(
  'users_groups.navigation_views_of_user',
  `SELECT ${columnsOf(Prisma.NavigationViewScalarFieldEnum)} FROM navigation_views WHERE user_id = $1 ORDER BY id`,
);

/**
 * The `navigation_views` table: each user's stored views, one per fragment. The list is read
 * through pg (POST /register reads it every time); the changes are Prisma's.
 */
@Injectable()
export class NavigationViewsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** The user's views, oldest first. */
  ofUser(userId: number): Promise<NavigationViewModel[]> {
    return this.pg.run(viewsOfUser, userId);
  }

  /** Whether one of the user's views has this fragment or (when given) this name. */
  async hasFragmentOrName(userId: number, fragment: string, name: string | null): Promise<boolean> {
    const taken = await this.prisma.navigationView.count({ where: { userId, OR: [{ fragment }, ...(name !== null ? [{ name }] : [])] } });
    return taken > 0;
  }

  /** Whether one of the user's views has this name. */
  async hasName(userId: number, name: string): Promise<boolean> {
    return (await this.prisma.navigationView.count({ where: { userId, name } })) > 0;
  }

  /** Stores a view; false when the user already has one with that fragment (the unique key settles a race). */
  async add(userId: number, view: StoredNavigationView, tx: Transaction = this.prisma): Promise<boolean> {
    const { count } = await tx.navigationView.createMany({ data: [{ userId, ...view }], skipDuplicates: true });
    return count > 0;
  }

  /** Changes the user's view of that fragment; false when they have none. */
  async update(userId: number, fragment: string, changes: { name?: string; isPinned?: boolean }, tx: Transaction = this.prisma): Promise<boolean> {
    const { count } = await tx.navigationView.updateMany({ where: { userId, fragment }, data: changes });
    return count > 0;
  }

  /** Deletes the user's view of that fragment; false when they have none. */
  async remove(userId: number, fragment: string, tx: Transaction = this.prisma): Promise<boolean> {
    const { count } = await tx.navigationView.deleteMany({ where: { userId, fragment } });
    return count > 0;
  }
}
