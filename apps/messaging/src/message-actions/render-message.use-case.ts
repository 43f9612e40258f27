import { Injectable } from '@nestjs/common';
import type { Messaging, PayloadOf, ResultOf } from '@teamchat/contracts';
import { normalizeContent } from '../messages/message-text';
import { ContentRenderer } from '../core/content-renderer';

type Command = PayloadOf<typeof Messaging.renderMessage>;

/** POST /messages/render (zerver/views/message_edit.py render_message_backend): the HTML a message would get; nothing stored. */
@Injectable()
export class RenderMessage {
  constructor(private readonly renderer: ContentRenderer) {}

  async execute({ realm, user, params }: Command): Promise<ResultOf<typeof Messaging.renderMessage>> {
    const { rendered } = await this.renderer.render(realm.id, normalizeContent(params.content), undefined, user.id);
    return { rendered };
  }
}
