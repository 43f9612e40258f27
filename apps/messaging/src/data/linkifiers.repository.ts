import { Injectable } from '@nestjs/common';
import { PgService, PrismaService, queryableOf, type RealmLinkifierModel, type RealmPlaygroundModel } from '@teamchat/db';
import { linkifiersOf, playgroundsOf } from './linkifiers.sql';
import type { ColdTx } from './transactions';

/**
 * `realm_linkifiers` and `realm_playgrounds`, which messaging owns: the organization's
 * linkifiers (applied by the renderer, which caches them per organization: RealmLinkifiers)
 * and code playgrounds. Read through pg (POST /register reads both), also inside a transaction
 * (`tx`: the list after a change); written through the ORM.
 */
@Injectable()
export class LinkifiersRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  /** The organization's linkifiers in the order they apply (order, then id). */
  ofRealm(realmId: number, tx?: ColdTx): Promise<RealmLinkifierModel[]> {
    return (tx ? queryableOf(tx) : this.pg).run(linkifiersOf, realmId);
  }

  /** Whether another linkifier of the organization has this pattern. */
  async patternTaken(realmId: number, pattern: string, exceptId?: number): Promise<boolean> {
    return (await this.prisma.realmLinkifier.count({ where: { realmId, pattern, ...(exceptId ? { id: { not: exceptId } } : {}) } })) > 0;
  }

  find(id: number, realmId: number): Promise<RealmLinkifierModel | null> {
    return this.prisma.realmLinkifier.findFirst({ where: { id, realmId } });
  }

  /** Adds a linkifier after the organization's last one, in the caller's transaction. */
  async create(realmId: number, pattern: string, urlTemplate: string, tx: ColdTx): Promise<RealmLinkifierModel> {
    const { _max } = await tx.realmLinkifier.aggregate({ where: { realmId }, _max: { order: true } });
    return tx.realmLinkifier.create({ data: { realmId, pattern, urlTemplate, order: _max.order === null ? 0 : _max.order + 1 } });
  }

  /** False when the organization has no linkifier with this id. */
  async update(id: number, realmId: number, pattern: string, urlTemplate: string, tx: ColdTx = this.prisma): Promise<boolean> {
    return (await tx.realmLinkifier.updateMany({ where: { id, realmId }, data: { pattern, urlTemplate } })).count > 0;
  }

  async delete(id: number, realmId: number, tx: ColdTx = this.prisma): Promise<boolean> {
    return (await tx.realmLinkifier.deleteMany({ where: { id, realmId } })).count > 0;
  }

  /** Gives each linkifier its position in `ids` (which the caller checked lists them all), in the caller's transaction. */
  async reorder(realmId: number, ids: number[], tx: ColdTx): Promise<void> {
    for (const [order, id] of ids.entries()) await tx.realmLinkifier.updateMany({ where: { id, realmId }, data: { order } });
  }

  /** The organization's code playgrounds, by id. */
  playgroundsOf(realmId: number, tx?: ColdTx): Promise<RealmPlaygroundModel[]> {
    return (tx ? queryableOf(tx) : this.pg).run(playgroundsOf, realmId);
  }

  async playgroundTaken(realmId: number, pygmentsLanguage: string, name: string): Promise<boolean> {
    return (await this.prisma.realmPlayground.count({ where: { realmId, pygmentsLanguage, name } })) > 0;
  }

  createPlayground(realmId: number, name: string, pygmentsLanguage: string, urlTemplate: string, tx: ColdTx = this.prisma): Promise<RealmPlaygroundModel> {
    return tx.realmPlayground.create({ data: { realmId, name, pygmentsLanguage, urlTemplate } });
  }

  async deletePlayground(id: number, realmId: number, tx: ColdTx = this.prisma): Promise<boolean> {
    return (await tx.realmPlayground.deleteMany({ where: { id, realmId } })).count > 0;
  }
}
