import { Inject, Injectable } from '@nestjs/common';
import { ServiceInterface, type Messaging } from '@teamchat/contracts';
import { APP_CONFIG, LOGGER, type AppConfig } from '@teamchat/platform';
import { ZULIP_VERSION, ZulipError, badRequest } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { BotServicesReadonlyRepository, type ServiceBotRow } from '../data/bot-services.readonly.repository';
import { SendScheduledMessage } from '../messages/send-scheduled-message.use-case';
import { nearMessageUrl, pythonRepr } from './webhook-texts';

type Job = Messaging.OutgoingWebhookJob;
type Bot = ServiceBotRow & { baseUrl: string; token: string; interface: number };

/** A call that may succeed if tried again (timed out, or the service unreachable): BullMQ retries it. */
export class RetryableWebhookError extends Error {
  override name = 'RetryableWebhookError';
}

/** What the bot says back (Zulip's process_success): its answer's `content`, or nothing. */
type Answer = { content: string } | null;

/**
 * One outgoing webhook call (zerver/lib/outgoing_webhook.py do_rest_call, zerver/worker/
 * outgoing_webhooks.py): POSTs the message to the bot's service in Zulip's format (or Slack's)
 * with a timeout. A 2xx answer's `content` (or the deprecated `response_string`; nothing with
 * `response_not_required`) is sent as the bot into the same conversation. A refused status, or
 * an answer that cannot be used, makes the bot say "Failure! …" there and tells its owner by
 * direct message. A timeout or connection error throws RetryableWebhookError until the last
 * attempt, which answers "Failure! Bot is unavailable" and tells the owner why.
 */
@Injectable()
export class DeliverOutgoingWebhook {
  private readonly root: URL;

  constructor(
    private readonly bots: BotServicesReadonlyRepository,
    private readonly sendMessage: SendScheduledMessage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.root = new URL(config.EXTERNAL_URL);
  }

  async execute(job: Job, { finalAttempt, requestId }: { finalAttempt: boolean; requestId: string }): Promise<void> {
    const row = await this.bots.serviceBot(job.realmId, job.botId);
    // A bot deactivated (or left without a service) since the message: nothing to call.
    if (!row || !row.isActive || row.baseUrl === null || row.token === null || row.interface === null) return;
    const bot = row as Bot;
    const command = String(job.message.content ?? '');

    let response: Response | null;
    try {
      response = await this.request(bot, job, command, requestId);
    } catch (error) {
      if (error instanceof RetryableWebhookError) {
        if (!finalAttempt) throw error;
        this.logger.warn({ botId: bot.botId, requestId }, 'outgoing webhook: maximum retries exceeded');
        await this.failWithMessage(job, 'Bot is unavailable', requestId);
        await this.notifyOwner(job, bot, { failureMessage: error.message }, requestId);
        return;
      }
      const type = error instanceof Error ? error.name : 'Error';
      await this.failWithMessage(job, `An exception of type *${type}* occurred for message \`${command}\`! See the Zulip server logs for more information.`, requestId);
      await this.notifyOwner(job, bot, { exception: { type, text: error instanceof Error ? error.message : String(error) } }, requestId);
      return;
    }
    if (response === null) return;
    const text = await response.text();
    if (response.status >= 200 && response.status < 300) {
      try {
        const answer = this.answerOf(bot, text);
        if (answer) await this.reply(job, answer.content, requestId);
      } catch (error) {
        if (!(error instanceof ZulipError)) throw error;
        await this.failWithMessage(job, error.message, requestId);
        const failureMessage = `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${error.message}`;
        await this.notifyOwner(job, bot, { failureMessage, responseContent: pythonRepr(text, false) }, requestId);
      }
      return;
    }
    this.logger.warn({ botId: bot.botId, status: response.status, requestId }, 'outgoing webhook refused');
    await this.failWithMessage(job, `Third party responded with ${response.status}`, requestId);
    await this.notifyOwner(job, bot, { statusCode: response.status, responseContent: text ? pythonRepr(text, true) : undefined }, requestId);
  }

  /** The service's request (Zulip's make_request), or null when the interface cannot serve it (the bot has said why). */
  private async request(bot: Bot, job: Job, command: string, requestId: string): Promise<Response | null> {
    const message = job.message;
    let body: string;
    let contentType: string;
    if (bot.interface === ServiceInterface.SLACK) {
      if (message.type === 'private') {
        await this.failWithMessage(job, "Slack outgoing webhooks don't support private messages.", requestId);
        return null;
      }
      const form = new URLSearchParams([
        ['token', bot.token],
        ['team_id', bot.subdomain],
        ['team_domain', String(message.sender_email ?? '').split('@').pop() ?? ''],
        ['channel_id', String(message.stream_id)],
        ['channel_name', String(message.display_recipient)],
        ['timestamp', String(message.timestamp)],
        ['user_id', String(message.sender_id)],
        ['user_name', String(message.sender_full_name)],
        ['text', command],
        ['trigger_word', job.trigger],
        ['service_id', String(bot.botId)],
      ]);
      body = form.toString();
      contentType = 'application/x-www-form-urlencoded';
    } else {
      body = JSON.stringify({ data: command, message, bot_email: bot.email, bot_full_name: bot.fullName, token: bot.token, trigger: job.trigger });
      contentType = 'application/json';
    }
    const url = new URL(bot.baseUrl); // an unusable URL throws: the "exception" failure
    try {
      return await fetch(url, {
        method: 'POST',
        headers: { 'content-type': contentType, 'user-agent': `ZulipOutgoingWebhook/${ZULIP_VERSION}` },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.config.OUTGOING_WEBHOOK_TIMEOUT_MS),
      });
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new RetryableWebhookError(`Request timed out after ${this.config.OUTGOING_WEBHOOK_TIMEOUT_MS / 1000} seconds.`);
      }
      throw new RetryableWebhookError('A connection error occurred. Is my bot server down?');
    }
  }

  /** Zulip's process_success_response and the interfaces' process_success. */
  private answerOf(bot: Bot, text: string): Answer {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw badRequest('Invalid JSON in response');
    }
    // zulip_botserver before 2021-05 answered "" for "no response required".
    if (json === '') return null;
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw badRequest('Invalid response format');
    const answer = json as Record<string, unknown>;
    let content: unknown;
    if (bot.interface === ServiceInterface.SLACK) content = answer.text;
    else if (answer.response_not_required) return null;
    else if ('response_string' in answer) content = pyStr(answer.response_string);
    else if ('content' in answer) content = pyStr(answer.content);
    if (content === undefined || content === null) return null;
    const body = String(content);
    return body.trim() === '' ? null : { content: body };
  }

  /** Zulip's send_response_message: as the bot, into the message's conversation (channel access not checked). */
  private async reply(job: Job, content: string, requestId: string): Promise<void> {
    const message = job.message;
    const isChannel = message.type === 'stream';
    const recipients = Array.isArray(message.display_recipient) ? (message.display_recipient as { id: number }[]).map((r) => r.id) : [];
    await this.sendMessage.execute(
      {
        realmId: job.realmId,
        senderId: job.botId,
        client: 'OutgoingWebhookResponse',
        readBySender: null,
        requestId,
        type: isChannel ? 'stream' : 'private',
        to: isChannel ? String(message.stream_id) : JSON.stringify(recipients),
        topic: isChannel ? String(message.subject ?? '') : undefined,
        content,
      },
      { systemSender: true },
    );
  }

  /** Zulip's fail_with_message: "Failure! …" from the bot where it was asked; a refusal to send is dropped. */
  private async failWithMessage(job: Job, failure: string, requestId: string): Promise<void> {
    try {
      await this.reply(job, `Failure! ${failure}`, requestId);
    } catch (error) {
      if (!(error instanceof ZulipError)) throw error;
    }
  }

  /** Zulip's notify_bot_owner: a direct message from the bot to its owner saying what went wrong. */
  private async notifyOwner(
    job: Job,
    bot: Bot,
    why: { statusCode?: number; responseContent?: string; failureMessage?: string; exception?: { type: string; text: string } },
    requestId: string,
  ): Promise<void> {
    if (bot.ownerId === null || !bot.ownerActive) return;
    const host = bot.subdomain ? `${bot.subdomain}.${this.root.hostname}` : this.root.hostname;
    const realmUrl = `${this.root.protocol}//${host}${this.root.port ? `:${this.root.port}` : ''}`;
    let text = `[A message](${nearMessageUrl(realmUrl, job.message, bot.botId)}) to your bot @_**${bot.fullName}** triggered an outgoing webhook.`;
    if (why.exception) {
      text += `\nWhen trying to send a request to the webhook service, an exception of type ${why.exception.type} occurred:\n\`\`\`\n${why.exception.text}\n\`\`\``;
    } else if (why.failureMessage) text += `\n${why.failureMessage}`;
    else if (why.statusCode === 407) text += '\nThe URL configured for the webhook is for a private or disallowed network.';
    else if (why.statusCode) text += `\nThe webhook got a response with status code *${why.statusCode}*.`;
    if (why.responseContent) text += `\nThe response contains the following payload:\n\`\`\`\n${why.responseContent}\n\`\`\``;
    try {
      await this.sendMessage.execute({
        realmId: job.realmId,
        senderId: job.botId,
        client: 'OutgoingWebhookResponse',
        readBySender: null,
        requestId,
        type: 'private',
        to: JSON.stringify([bot.ownerId]),
        content: text,
      });
    } catch (error) {
      if (!(error instanceof ZulipError)) throw error;
    }
  }
}

/** Python's str() of a JSON value, as Zulip's `str(response_json["content"])` makes it. */
function pyStr(value: unknown): unknown {
  if (value === undefined) return value;
  if (value === null) return 'None';
  if (typeof value === 'string') return value;
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}
