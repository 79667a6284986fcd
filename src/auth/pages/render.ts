import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Language } from '../oauth/language.js';
import { isMessageKey, translator } from './i18n.js';

const views = fileURLToPath(new URL('./templates', import.meta.url));
const eta = new Eta({ views, cache: true, autoEscape: true });

export interface PageData extends Record<string, unknown> {
  title: string;
  /** Link to the same page in the other language. */
  switchUrl?: string;
}

/** Renders an enrollee-facing page in one language; every template gets `t` for its texts. */
export function renderPage(template: string, lang: Language, data: PageData): string {
  return eta.render(`./${template}`, { ...data, lang, t: translator(lang) });
}

/** The error page: `message` may be a catalogue key (translated) or literal text from the protocol. */
export function renderErrorPage(lang: Language, status: number, heading: string, message: string): string {
  const t = translator(lang);
  return renderPage('error', lang, {
    title: t('errorTitle'),
    status,
    heading,
    message: isMessageKey(message) ? t(message) : message,
  });
}
