import type { Mail } from '@teamchat/platform';
import { escapeHtml } from '@teamchat/zulip';

/** Zulip's templates/zerver/emails/invitation.*: the invitation and its link to the registration form. */
export function invitationMail(invite: { to: string; referrerName: string; referrerEmail: string; realmName: string; realmUrl: string; link: string }): Mail {
  const host = new URL(invite.realmUrl).host;
  const intro = `${invite.referrerName} (${invite.referrerEmail}) has invited you to join ${invite.realmName}, a Zulip organization at ${host}.`;
  return {
    to: invite.to,
    fromName: 'Zulip',
    subject: `${invite.referrerName} has invited you to join ${invite.realmName}`,
    text: `Hi there,\n\n${intro}\n\nTo get started, click the link below.\n    <${invite.link}>\n`,
    html:
      `<p>Hi there,</p><p>${escapeHtml(intro)}</p>` +
      `<p>To get started, click the button below.</p><p><a class="button" href="${escapeHtml(invite.link)}">Complete registration</a></p>`,
  };
}

/** Zulip's templates/zerver/emails/confirm_registration.*: an address given on a sign-up page, confirmed by its link. */
export function confirmRegistrationMail(confirm: { to: string; realmName: string; realmUrl: string; link: string }): Mail {
  const text = `You recently signed up for ${confirm.realmName} (${confirm.realmUrl}). To complete your registration, open this link:`;
  return {
    to: confirm.to,
    fromName: 'Zulip',
    subject: 'Activate your Zulip account',
    text: `Hi,\n\n${text}\n\n    <${confirm.link}>\n\nIf you did not sign up, you can ignore this email.\n`,
    html:
      `<p>Hi,</p><p>${escapeHtml(text)}</p><p><a class="button" href="${escapeHtml(confirm.link)}">Confirm and log in</a></p>` +
      '<p>If you did not sign up, you can ignore this email.</p>',
  };
}
