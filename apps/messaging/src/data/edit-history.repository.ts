import { Injectable } from '@nestjs/common';
import type { EditHistoryEntry } from '../message-actions/edit-history';
import { editMessages, lockMessageForEdit } from './edit-history.sql';
import type { Tx } from './transactions';

/** What an edit changes (null keeps a column) and the edit-history entry it prepends. */
export interface MessageEdit {
  content: string | null;
  renderedContent: string | null;
  topic: string | null;
  streamId: number | null;
  at: Date;
  /** The edit-history entry prepended. */
  entry: EditHistoryEntry;
  hasLink: boolean | null;
  hasImage: boolean | null;
  hasAttachment: boolean | null;
}

/**
 * Edits of `messages` (content, topic, channel) and their `edit_history` (newest entry first),
 * written together inside the edit's transaction.
 */
@Injectable()
export class EditHistoryRepository {
  /** Locks a message for an edit (until the transaction ends) and answers what it holds; null when it is gone. */
  async lockForEdit(messageId: number, tx: Tx): Promise<{ content: string; topic: string; streamId: number | null } | null> {
    return (await tx.run(lockMessageForEdit, messageId))[0] ?? null;
  }

  /** An edit of these messages, its edit-history entry prepended to each. */
  async edit(messageIds: number[], edit: MessageEdit, tx: Tx): Promise<void> {
    const e = edit;
    await tx.run(editMessages, messageIds, e.content, e.renderedContent, e.topic, e.streamId, e.at, JSON.stringify(e.entry), e.hasLink, e.hasImage, e.hasAttachment);
  }
}
