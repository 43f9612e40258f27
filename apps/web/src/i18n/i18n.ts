import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';

/**
 * Every string the app shows goes through i18next (react-i18next in components). Keys are the
 * English texts themselves, as Zulip's web app keys its messages; `en.json` is the English
 * catalogue (a test checks it lists every key the source uses), the base for a translation.
 */
void i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: en } },
  keySeparator: false,
  nsSeparator: false,
  returnEmptyString: false,
  interpolation: { escapeValue: false }, // React escapes
  initAsync: false,
});

/** For text outside components (titles, errors). */
export const t = i18next.t.bind(i18next);
