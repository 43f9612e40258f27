/**
 * The languages the server lists: Zulip's translations (one per `locale/<name>/` folder, plus
 * English), each with the code Django derives from the folder name (`pt_BR` → `pt-br`) and the
 * language's own name, which Zulip sends as `language_name`. `default_language` accepts exactly
 * these codes; nothing else keeps a list of languages.
 */
export const LANGUAGES: readonly { code: string; name: string }[] = [
  { code: 'en', name: 'English' },
  { code: 'ar', name: 'العربيّة' },
  { code: 'be', name: 'беларуская' },
  { code: 'bg', name: 'български' },
  { code: 'bn', name: 'বাংলা' },
  { code: 'bqi', name: 'Luri (Bakhtiari)' },
  { code: 'ca', name: 'català' },
  { code: 'cs', name: 'česky' },
  { code: 'cy', name: 'Cymraeg' },
  { code: 'da', name: 'dansk' },
  { code: 'de', name: 'Deutsch' },
  { code: 'el', name: 'Ελληνικά' },
  { code: 'en-gb', name: 'British English' },
  { code: 'eo', name: 'Esperanto' },
  { code: 'es', name: 'español' },
  { code: 'et', name: 'eesti' },
  { code: 'fa', name: 'فارسی' },
  { code: 'fi', name: 'suomi' },
  { code: 'fr', name: 'français' },
  { code: 'gl', name: 'galego' },
  { code: 'gu', name: 'ગુજરાતી' },
  { code: 'hi', name: 'हिंदी' },
  { code: 'hu', name: 'Magyar' },
  { code: 'id', name: 'Bahasa Indonesia' },
  { code: 'it', name: 'italiano' },
  { code: 'ja', name: '日本語' },
  { code: 'kk', name: 'Қазақ' },
  { code: 'ko', name: '한국어' },
  { code: 'lt', name: 'Lietuviškai' },
  { code: 'lv', name: 'latviešu' },
  { code: 'ml', name: 'മലയാളം' },
  { code: 'mn', name: 'Монгол' },
  { code: 'my', name: 'မြန်မာဘာသာ' },
  { code: 'nl', name: 'Nederlands' },
  { code: 'no', name: 'norsk' },
  { code: 'pl', name: 'polski' },
  { code: 'pt', name: 'Português' },
  { code: 'pt-br', name: 'Português Brasileiro' },
  { code: 'pt-pt', name: 'Português (Portugal)' },
  { code: 'ro', name: 'Română' },
  { code: 'ru', name: 'Русский' },
  { code: 'si', name: 'සිංහල' },
  { code: 'sl', name: 'Slovenščina' },
  { code: 'sr', name: 'српски' },
  { code: 'sv', name: 'svenska' },
  { code: 'ta', name: 'தமிழ்' },
  { code: 'tl', name: 'Tagalog' },
  { code: 'tr', name: 'Türkçe' },
  { code: 'uk', name: 'Українська' },
  { code: 'vi', name: 'Tiếng Việt' },
  { code: 'zh-hans', name: '简体中文' },
  { code: 'zh-hant', name: '繁體中文' },
  { code: 'zh-tw', name: '中文 (台灣)' },
];

export const LANGUAGE_CODES: readonly string[] = LANGUAGES.map((language) => language.code);

/** The language's own name, as Zulip's `language_name` (its get_language_name). */
export function languageName(code: string): string {
  return LANGUAGES.find((language) => language.code === code)?.name ?? 'Unknown';
}
