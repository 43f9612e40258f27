import type { Mail } from '@teamchat/platform';
import { escapeHtml } from '@teamchat/zulip';

/**
 * Zulip's templates/zerver/emails/deactivate.*: to a user an administrator deactivated with a
 * `deactivation_notification_comment`, the news and, unless empty, the administrators' comment.
 */
export function deactivationMail(notice: { to: string; realmName: string; realmUrl: string; comment: string }): Mail {
  const intro = `Your Zulip account on ${notice.realmUrl} has been deactivated, and you will no longer be able to log in.`;
  const comment = notice.comment ? `\n\nThe administrators provided the following comment:\n\n${notice.comment}` : '';
  return {
    to: notice.to,
    fromName: 'Zulip',
    subject: `Notification of account deactivation on ${notice.realmName}`,
    text: `${intro}${comment}\n`,
    html:
      `<p>${escapeHtml(intro)}</p>` +
      (notice.comment ? `<p>The administrators provided the following comment:</p><pre class="deactivated-user-text">${escapeHtml(notice.comment)}</pre>` : ''),
  };
}
