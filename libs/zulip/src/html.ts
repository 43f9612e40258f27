/** Text made safe to put into HTML, in an element or a quoted attribute (the pages and mails Zulip's templates would escape). */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
