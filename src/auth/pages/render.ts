import { pageRenderer, type PageData } from '../../shared/pages.js';
import type { Language } from '../oauth/language.js';
import { isMessageKey, translator, type MessageKey } from './i18n.js';

export type { PageData };

/** Renders an enrollee-facing page in one language; every template gets `t` for its texts. */
export const renderPage = pageRenderer(new URL('./templates', import.meta.url), translator);

/**
 * Blue Button's English texts of the authorize checks (docs/decisions.md#authorize-checks) that an enrollee
 * can meet on a page, and their catalogue entries: English pages keep Blue Button's words, other languages
 * get the translation.
 */
const PROTOCOL_TEXTS: [RegExp, MessageKey][] = [
  [/^App id failed$/, 'appIdFailed'],
  [/^Application does not exist \(client_id\)$/, 'appNotFound'],
  [/^This application, (?<app>.+), is temporarily inactive\./, 'appInactive'],
  [/^Missing redirect URI\.$/, 'redirectMissing'],
  [/^Mismatching redirect URI\.$/, 'redirectMismatch'],
];

/** `message` as the page shows it: a catalogue key translated, a known protocol text translated off English. */
function pageMessage(lang: Language, message: string): string {
  const t = translator(lang);
  if (isMessageKey(message)) return t(message);
  if (lang === 'en') return message;
  for (const [pattern, key] of PROTOCOL_TEXTS) {
    const match = pattern.exec(message);
    if (match) return t(key, { ...match.groups });
  }
  return message;
}

/**
 * The error page: `message` may be a catalogue key (translated) or literal text from the protocol; `link`
 * (its text a catalogue key) is offered below it, e.g. to try again.
 */
export function renderErrorPage(
  lang: Language,
  status: number,
  heading: string,
  message: string,
  switchUrl?: string,
  link?: { href: string; text: string },
): string {
  const t = translator(lang);
  return renderPage('error', lang, {
    title: t('errorTitle'),
    switchUrl,
    status,
    heading,
    message: pageMessage(lang, message),
    link: link && { href: link.href, text: pageMessage(lang, link.text) },
  });
}
