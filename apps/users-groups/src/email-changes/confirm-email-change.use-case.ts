import { Inject, Injectable } from '@nestjs/common';
import {
  EmailVisibility,
  UsersGroupsEvents,
  canSeeDeliveryEmail,
  resolveSettings,
  type ClientEvent,
  type EventDef,
  type PayloadOf,
  type UsersGroups,
} from '@teamchat/contracts';
import { EventOutbox } from '@teamchat/db';
import { LOGGER, MailQueue } from '@teamchat/platform';
import { ZulipError, avatarUrls } from '@teamchat/zulip';
import type { Logger } from 'pino';
import { EmailChangesRepository } from '../data/email-changes.repository';
import type { Transaction } from '../data/transactions';
import { UsersRepository } from '../data/users.repository';
import { UserAccess } from '../users/user-access';
import { RealmDirectory } from '../realms/realm-directory';
import { emailChangedMail } from './email-change-mails';
import { checkEmailChange } from './email-change-rules';
import { isWellFormedKey } from './email-change-requests';

type Command = PayloadOf<typeof UsersGroups.confirmEmailChange>;

/** Zulip's pages for a confirmation link that leads nowhere (confirmation/*.html), all 404. */
const linkError = (msg: string) => new ZulipError('NOT_FOUND', msg);
export const LINK_MALFORMED = "This confirmation link is malformed. Make sure you copied the whole link.";
export const LINK_DOES_NOT_EXIST = "Whoops. We couldn't find your confirmation link in the system.";
export const LINK_EXPIRED = 'This confirmation link has expired or been deactivated.';

type Event = { def: EventDef<ClientEvent>; payload: ClientEvent };

/**
 * GET /accounts/confirm_new_email/<key> (Zulip's confirm_email_change): applies the pending
 * change the key names, if it belongs to the organization the host selects, has not expired,
 * and the rules for changing one's address still allow it. The key is used up; every other
 * pending change of the user's goes with it. The old address is told afterwards.
 */
@Injectable()
export class ConfirmEmailChange {
  constructor(
    private readonly users: UsersRepository,
    private readonly changes: EmailChangesRepository,
    private readonly realms: RealmDirectory,
    private readonly outbox: EventOutbox,
    private readonly access: UserAccess,
    private readonly mail: MailQueue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ host, key, requestId }: Command) {
    const realmRow = await this.realms.resolve(host);
    if (!isWellFormedKey(key)) throw linkError(LINK_MALFORMED);

    const { user, change } = await this.outbox.runCold(async (tx) => {
      const userId = await this.changes.lockForConfirmation(key, realmRow.id, tx);
      if (userId === undefined) throw linkError(LINK_DOES_NOT_EXIST);
      const change = await this.changes.byKey(key, tx);
      const user = await this.users.withRealm(userId, tx);
      if (change.expiresAt.getTime() <= Date.now() || user.deliveryEmail !== change.oldEmail) throw linkError(LINK_EXPIRED);
      if (user.realm.deactivated) throw new ZulipError('BAD_REQUEST', 'This organization has been deactivated');
      await checkEmailChange(
        this.users,
        { id: user.id, realmId: user.realmId, role: user.role, isActive: user.isActive, emailChangesDisabled: user.realm.emailChangesDisabled },
        change.newEmail,
        tx,
      );
      await this.users.changeDeliveryEmail(user.id, change.newEmail, tx);
      await this.changes.deleteOfUser(user.id, tx);
      return { value: { user, change }, events: await this.changeEvents(user, change.newEmail, tx) };
    }, requestId);

    const realmUrl = this.realms.urlOf(user.realm.subdomain);
    await this.mail
      .send(emailChangedMail({ realmName: user.realm.name, realmUrl, oldEmail: change.oldEmail, newEmail: change.newEmail }))
      .catch((error: unknown) => this.logger.error({ err: error, requestId }, 'email change made, but the mail to the old address was not queued'));
    return { realmName: user.realm.name, oldEmail: change.oldEmail, newEmail: change.newEmail };
  }

  /**
   * Zulip's do_change_user_delivery_email: the new real address to everyone who may see it
   * (the user included); a Gravatar follows the address, so its new URL to everyone; and when
   * the address is the one the API shows (visibility "everyone"), `new_email` to everyone.
   */
  private async changeEvents(
    user: { id: number; realmId: number; settings: unknown; avatarSource: string; avatarVersion: number; realm: { userSettingsDefaults: unknown } },
    newEmail: string,
    tx: Transaction,
  ): Promise<Event[]> {
    const visibility = resolveSettings(user.realm.userSettingsDefaults, user.settings).email_address_visibility;
    const everyone = await this.access.audienceOf(user.realmId, user.id, tx);
    const allIds = everyone.map((viewer) => viewer.id);
    const realmUser = (users: number[], person: Record<string, unknown>): Event => ({
      def: UsersGroupsEvents.realmUserChanged,
      payload: { realmId: user.realmId, users, event: { type: 'realm_user', op: 'update', person: { user_id: user.id, ...person } } },
    });
    const events = [
      realmUser(
        everyone.filter((viewer) => canSeeDeliveryEmail(viewer, user.id, visibility)).map((viewer) => viewer.id),
        { delivery_email: newEmail },
      ),
    ];
    if (user.avatarSource === 'G') {
      events.push(
        realmUser(allIds, {
          avatar_source: user.avatarSource,
          ...avatarUrls({ ...user, deliveryEmail: newEmail }, user.realmId),
          avatar_version: user.avatarVersion,
        }),
      );
    }
    if (visibility === EmailVisibility.EVERYONE) events.push(realmUser(allIds, { new_email: newEmail }));
    return events;
  }
}
