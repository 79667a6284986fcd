import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Language } from '../../shared/language.js';
import { translator } from './i18n.js';

const views = fileURLToPath(new URL('./templates', import.meta.url));
const eta = new Eta({ views, cache: true, autoEscape: true });

export interface PageData extends Record<string, unknown> {
  title: string;
  /** Link to the same page in the other language. */
  switchUrl?: string;
}

/** Renders a developer-portal page in one language; every template gets `t` for its texts. */
export function renderPage(template: string, lang: Language, data: PageData): string {
  return eta.render(`./${template}`, { ...data, lang, t: translator(lang) });
}
