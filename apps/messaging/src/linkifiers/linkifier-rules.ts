import { Messaging } from '@teamchat/contracts';
import type { RealmLinkifierModel, RealmPlaygroundModel } from '@teamchat/db';
import { ZulipError, badRequest } from '@teamchat/zulip';
import { readPattern } from './linkifier-pattern';
import { parseTemplate, templateVariables } from './uri-template';

/** Django's text for an empty required text field. */
const BLANK = 'This field cannot be blank.';

/**
 * Field errors as Django's full_clean collects them (field checks in field order, then the
 * model's own check and uniqueness under `__all__`); Zulip's ValidationFailureError answers the
 * first message, with all of them in `errors`.
 */
class FieldErrors {
  private readonly errors = new Map<string, string[]>();
  add(field: string, message: string): void {
    this.errors.set(field, [...(this.errors.get(field) ?? []), message]);
  }
  has(field: string): boolean {
    return this.errors.has(field);
  }
  throwAny(): void {
    if (this.errors.size === 0) return;
    const first = [...this.errors.values()][0][0];
    throw badRequest(first, { errors: Object.fromEntries(this.errors) });
  }
}

/**
 * RealmFilter.full_clean (zerver/models/linkifiers.py): both texts not blank, the template an
 * RFC 6570 template, the pattern a regular expression (see linkifier-pattern.ts), the
 * template's variables exactly the pattern's named groups, the pattern not the organization's
 * already. `patternTaken` is asked only when the pattern itself passed.
 */
export async function checkLinkifier(pattern: string, urlTemplate: string, patternTaken: () => Promise<boolean>): Promise<void> {
  const errors = new FieldErrors();
  if (!pattern) errors.add('pattern', BLANK);
  const template = urlTemplate ? parseTemplate(urlTemplate) : null;
  if (!urlTemplate) errors.add('url_template', BLANK);
  else if (!template) errors.add('url_template', 'Invalid URL template.');

  const read = readPattern(pattern);
  if (!read.ok) errors.add('__all__', `Bad regular expression: ${read.error}`);
  else if (template) {
    const groups = new Set(read.groups);
    const variables = templateVariables(template);
    const missingInPattern = [...variables].filter((name) => !groups.has(name)).sort();
    const missingInTemplate = [...groups].filter((name) => !variables.has(name)).sort();
    if (missingInPattern.length > 0) errors.add('__all__', `Group '${missingInPattern[0]}' in URL template is not present in linkifier pattern.`);
    else if (missingInTemplate.length > 0) errors.add('__all__', `Group '${missingInTemplate[0]}' in linkifier pattern is not present in URL template.`);
  }
  if (!errors.has('pattern') && (await patternTaken())) errors.add('__all__', 'Realm filter with this Realm and Pattern already exists.');
  errors.throwAny();
}

/**
 * Zulip's RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH and its language check
 * (check_pygments_language, and the model's validator, which is the same in Zulip 11):
 * `^[ a-zA-Z0-9_+-./#]*$`, where `+-.` is a range, so a comma passes too. Pygments' lexer names
 * are capitalised ("Python", the documented example). A later Zulip's model allows only
 * lowercase; that postdates the API this server follows and refuses the documented example.
 */
export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;
const LANGUAGE = /^[ a-zA-Z0-9_+,\-./#]*$/;

/**
 * POST /realm/playgrounds (zerver/views/realm_playgrounds.py, RealmPlayground.full_clean): the
 * language as sent at most 40 characters of the allowed ones, then, stripped, each field
 * checked in the model's order, the template's one variable `code`, and the name not already
 * the language's.
 */
export async function checkPlayground(
  raw: { name: string; pygments_language: string; url_template: string },
  taken: (language: string, name: string) => Promise<boolean>,
): Promise<{ name: string; language: string; urlTemplate: string }> {
  if ([...raw.pygments_language].length > MAX_PYGMENTS_LANGUAGE_LENGTH) {
    throw badRequest(`pygments_language is too long (limit: ${MAX_PYGMENTS_LANGUAGE_LENGTH} characters)`);
  }
  if (!LANGUAGE.test(raw.pygments_language)) throw badRequest('Invalid characters in pygments language');
  const name = raw.name.trim();
  const language = raw.pygments_language.trim();
  const urlTemplate = raw.url_template.trim();

  const errors = new FieldErrors();
  const template = urlTemplate ? parseTemplate(urlTemplate) : null;
  if (!urlTemplate) errors.add('url_template', BLANK);
  else if (!template) errors.add('url_template', 'Invalid URL template.');
  if (!name) errors.add('name', BLANK);
  if (!language) errors.add('pygments_language', BLANK);
  if (template) {
    const variables = templateVariables(template);
    if (!variables.has('code')) errors.add('__all__', 'Missing the required variable "code" in the URL template');
    else if (variables.size !== 1) errors.add('__all__', '"code" should be the only variable present in the URL template');
  }
  if (!errors.has('name') && !errors.has('pygments_language') && (await taken(language, name))) {
    errors.add('__all__', 'Realm playground with this Realm, Pygments language and Name already exists.');
  }
  errors.throwAny();
  return { name, language, urlTemplate };
}

export const toLinkifierRecord = (row: RealmLinkifierModel): Messaging.LinkifierRecord => ({
  pattern: row.pattern,
  url_template: row.urlTemplate,
  id: row.id,
});

export const toPlaygroundRecord = (row: RealmPlaygroundModel): Messaging.RealmPlaygroundRecord => ({
  id: row.id,
  name: row.name,
  pygments_language: row.pygmentsLanguage,
  url_template: row.urlTemplate,
});

export const linkifierNotFound = (): ZulipError => badRequest('Linkifier not found.');

/** The `realm_linkifiers` event: the whole list, to every active user. */
export const linkifiersEvent = (realmId: number, users: number[], rows: RealmLinkifierModel[]) => ({
  def: Messaging.LinkifierEvents.linkifiersChanged,
  payload: { realmId, users, event: { type: 'realm_linkifiers', realm_linkifiers: rows.map(toLinkifierRecord) } },
});

/** The `realm_playgrounds` event: the whole list, to every active user. */
export const playgroundsEvent = (realmId: number, users: number[], rows: RealmPlaygroundModel[]) => ({
  def: Messaging.LinkifierEvents.playgroundsChanged,
  payload: { realmId, users, event: { type: 'realm_playgrounds', realm_playgrounds: rows.map(toPlaygroundRecord) } },
});
