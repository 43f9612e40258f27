import Handlebars from 'handlebars';

/**
 * The missed-message email's two parts (Zulip's templates/zerver/emails/missed_message.*),
 * Handlebars templates: HTML-escaped by default, the messages' rendered HTML inserted as it is
 * (`{{{html}}}`: the server's own Markdown renderer made it).
 */
export interface MissedMessageView {
  realmName: string;
  realmUrl: string;
  recipientName: string;
  showContent: boolean;
  conversations: {
    header: string;
    url: string;
    messages: { senderName: string; html: string; text: string }[];
  }[];
  settingsUrl: string;
  unsubscribeUrl: string;
}

const HTML = Handlebars.compile<MissedMessageView>(
  `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Missed messages</title></head>
<body>
<p>Hello {{recipientName}},</p>
<p>You have unread messages in <a href="{{realmUrl}}">{{realmName}}</a>:</p>
{{#each conversations}}
<div class="conversation">
  <h3><a href="{{url}}">{{header}}</a></h3>
  {{#if ../showContent}}
  {{#each messages}}
  <div class="message">
    <p class="sender"><b>{{senderName}}</b></p>
    <div class="content">{{{html}}}</div>
  </div>
  {{/each}}
  {{else}}
  <p>This email does not include message content because you have disabled message content in email notifications.</p>
  {{/if}}
  <p><a href="{{url}}">Reply in {{../realmName}}</a></p>
</div>
{{/each}}
<hr>
<p><a href="{{settingsUrl}}">Manage email preferences</a> | <a href="{{unsubscribeUrl}}">Unsubscribe from missed message emails</a></p>
</body>
</html>
`,
  { strict: true },
);

const TEXT = Handlebars.compile<MissedMessageView>(
  `Hello {{recipientName}},

You have unread messages in {{realmName}} ({{realmUrl}}):
{{#each conversations}}

{{header}}
{{#if ../showContent}}
{{#each messages}}
{{senderName}}:
{{text}}

{{/each}}
{{else}}
This email does not include message content because you have disabled message content in email notifications.
{{/if}}
Reply in {{../realmName}}: {{url}}
{{/each}}

--
Manage email preferences: {{settingsUrl}}
Unsubscribe from missed message emails: {{unsubscribeUrl}}
`,
  // Plain text: nothing to escape.
  { strict: true, noEscape: true },
);

export function renderMissedMessageEmail(view: MissedMessageView): { html: string; text: string } {
  return { html: HTML(view), text: TEXT(view) };
}
