import type { Mail } from '@teamchat/platform';
import { escapeHtml } from '@teamchat/zulip';

/** Who account-security mail comes from (Zulip's security_email_from_name). */
const SECURITY_SENDER = 'Zulip account security';

interface ChangeContext {
  realmName: string;
  realmUrl: string;
  oldEmail: string;
  newEmail: string;
}

/** To the new address: the link that confirms the change (Zulip's confirm_new_email). */
export function confirmNewEmailMail(change: ChangeContext & { link: string }): Mail {
  const host = new URL(change.realmUrl).host;
  const intro = `We received a request to change the email address for the Zulip account on ${host} (${change.realmName}) from ${change.oldEmail} to ${change.newEmail}.`;
  const outro = 'If you did not request this change, you can ignore this email; the link expires in 24 hours.';
  return {
    to: change.newEmail,
    fromName: SECURITY_SENDER,
    subject: `Verify your new email address for ${host}`,
    text: `Hi,\n\n${intro}\n\nTo confirm this change, open this link:\n\n${change.link}\n\n${outro}\n`,
    html:
      `<p>Hi,</p><p>${escapeHtml(intro)}</p>` +
      `<p>To confirm this change, <a href="${escapeHtml(change.link)}">click here</a> or open ${escapeHtml(change.link)}</p>` +
      `<p>${escapeHtml(outro)}</p>`,
  };
}

/** To the old address, once the change is made (Zulip's notify_change_in_email). */
export function emailChangedMail(change: ChangeContext): Mail {
  const text = `The email address for your account on ${change.realmUrl} (${change.realmName}) has been changed from ${change.oldEmail} to ${change.newEmail}. If you did not make this change, please contact your organization's administrators immediately.`;
  return {
    to: change.oldEmail,
    fromName: SECURITY_SENDER,
    subject: 'Email address changed for your account',
    text: `Hi,\n\n${text}\n`,
    html: `<p>Hi,</p><p>${escapeHtml(text)}</p>`,
  };
}
