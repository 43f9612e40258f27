import { Injectable } from '@nestjs/common';
import { PgService, Prisma, PrismaService, columnsOf, isStoredId, statement, type ScheduledMessageModel } from '@teamchat/db';

export type StoredScheduledMessage = ScheduledMessageModel;

/** A transaction a use case opened (EventOutbox.runCold), in which a change and its events are written. */
export type ColdTx = Prisma.TransactionClient;

/** Zulip's ScheduledMessage.delivery_type: a message sent later as its sender, or a reminder from the notification bot. */
export const DeliveryType = { SEND_LATER: 1, REMIND: 2 } as const;

/** What a reminder stores besides the message fields: the message it is about and the note. */
export interface ReminderFields {
  reminderTargetMessageId: number;
  reminderNote: string | null;
}

/** What a create or an edit stores (the message as messaging checked it). */
export interface ScheduledMessageFields {
  type: 'stream' | 'private';
  streamId: number | null;
  recipientIds: number[];
  topic: string;
  content: string;
  renderedContent: string;
  sendingClient: string;
  scheduledAt: Date;
}

/**
 * The sender's undelivered ones of a delivery type, failed ones included, earliest first: what
 * POST /register (`scheduled_messages`, `reminders`) and the list endpoints show, through pg.
 */
const undeliveredOfSender = statement<StoredScheduledMessage, [realmId: number, senderId: number, deliveryType: number]>(
  'scheduler.undelivered_of_sender',
  `SELECT ${columnsOf(Prisma.ScheduledMessageScalarFieldEnum, { scheduledAt: 'scheduled_timestamp' })}
     FROM scheduled_messages WHERE realm_id = $1 AND sender_id = $2 AND NOT delivered AND delivery_type = $3
    ORDER BY scheduled_timestamp, id`,
);

/**
 * The scheduler's repository: `scheduled_messages`, which it owns. Delivery's state
 * changes are conditional updates (`delivered`/`failed` only from pending, of the version the
 * job was for), so of two racing deliveries exactly one records the outcome and announces it.
 */
@Injectable()
export class ScheduledMessagesRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: PgService,
  ) {}

  create(realmId: number, senderId: number, fields: ScheduledMessageFields, readBySender: boolean | null, tx: ColdTx = this.prisma): Promise<StoredScheduledMessage> {
    return tx.scheduledMessage.create({ data: { realmId, senderId, ...fields, readBySender } });
  }

  /** A reminder: a direct message to its owner alone, of delivery type REMIND. */
  createReminder(realmId: number, senderId: number, fields: ScheduledMessageFields, reminder: ReminderFields, tx: ColdTx = this.prisma): Promise<StoredScheduledMessage> {
    return tx.scheduledMessage.create({
      data: { realmId, senderId, ...fields, ...reminder, deliveryType: DeliveryType.REMIND, readBySender: false },
    });
  }

  /** The caller's undelivered ones of a delivery type (scheduled messages by default), failed ones included, earliest first. */
  undeliveredOf(realmId: number, senderId: number, deliveryType: number = DeliveryType.SEND_LATER): Promise<StoredScheduledMessage[]> {
    return this.pg.run(undeliveredOfSender, realmId, senderId, deliveryType);
  }

  /** One of the caller's scheduled messages, not yet delivered (Zulip's access_scheduled_message). */
  async ownUndelivered(realmId: number, senderId: number, id: number): Promise<StoredScheduledMessage | null> {
    if (!isStoredId(id)) return null;
    return this.prisma.scheduledMessage.findFirst({ where: { id, realmId, senderId, delivered: false, deliveryType: DeliveryType.SEND_LATER } });
  }

  /** One of the caller's reminders, delivered or not (Zulip's access_reminder). */
  async ownReminder(realmId: number, senderId: number, id: number): Promise<StoredScheduledMessage | null> {
    if (!isStoredId(id)) return null;
    return this.prisma.scheduledMessage.findFirst({ where: { id, realmId, senderId, deliveryType: DeliveryType.REMIND } });
  }

  /** Deletes one of the caller's reminders; false when there was none. */
  async deleteReminder(realmId: number, senderId: number, id: number, tx: ColdTx = this.prisma): Promise<boolean> {
    if (!isStoredId(id)) return false;
    const { count } = await tx.scheduledMessage.deleteMany({ where: { id, realmId, senderId, deliveryType: DeliveryType.REMIND } });
    return count > 0;
  }

  byId(id: number, tx: ColdTx = this.prisma): Promise<StoredScheduledMessage | null> {
    return tx.scheduledMessage.findUnique({ where: { id } });
  }

  /** Applies an edit unless delivery got there first; a failed one is pending again. Null when already delivered. */
  async edit(id: number, fields: Partial<ScheduledMessageFields>, tx: ColdTx = this.prisma): Promise<StoredScheduledMessage | null> {
    const { count } = await tx.scheduledMessage.updateMany({
      where: { id, delivered: false },
      data: { ...fields, failed: false, failureMessage: null, version: { increment: 1 } },
    });
    return count === 0 ? null : this.byId(id, tx);
  }

  /** Deletes one of the caller's undelivered ones; false when there was none. */
  async delete(realmId: number, senderId: number, id: number, tx: ColdTx = this.prisma): Promise<boolean> {
    if (!isStoredId(id)) return false;
    const { count } = await tx.scheduledMessage.deleteMany({ where: { id, realmId, senderId, delivered: false, deliveryType: DeliveryType.SEND_LATER } });
    return count > 0;
  }

  /** Records the message it became; false when another delivery recorded it first. */
  async markDelivered(id: number, messageId: number, tx: ColdTx = this.prisma): Promise<boolean> {
    const { count } = await tx.scheduledMessage.updateMany({
      where: { id, delivered: false },
      data: { delivered: true, deliveredMessageId: messageId },
    });
    return count > 0;
  }

  /** Records a failure of this version; false when it was delivered, failed, edited or deleted meanwhile. */
  async markFailed(id: number, version: number, reason: string, tx: ColdTx = this.prisma): Promise<StoredScheduledMessage | null> {
    const { count } = await tx.scheduledMessage.updateMany({
      where: { id, version, delivered: false, failed: false },
      data: { failed: true, failureMessage: reason },
    });
    return count === 0 ? null : this.byId(id, tx);
  }

  /** Every pending one (neither delivered nor failed), with what a delivery job needs. */
  pending(): Promise<{ id: number; version: number; scheduledAt: Date }[]> {
    return this.prisma.scheduledMessage.findMany({
      where: { delivered: false, failed: false },
      select: { id: true, version: true, scheduledAt: true },
      orderBy: { scheduledAt: 'asc' },
    });
  }
}
