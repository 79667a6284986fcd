import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Language } from './language.js';

/** What every page template gets: its title and, when there is one, the link to the other language. */
export interface PageData extends Record<string, unknown> {
  title: string;
  /** Link to the same page in the other language. */
  switchUrl?: string;
}

/**
 * A renderer of one set of eta templates (`views`, a folder URL) in a language; every template gets `t`,
 * the translator of that language's catalogue, and `lang`. Output is HTML-escaped unless a template opts out.
 */
export function pageRenderer<T>(views: URL, translator: (lang: Language) => T) {
  const eta = new Eta({ views: fileURLToPath(views), cache: true, autoEscape: true });
  return (template: string, lang: Language, data: PageData): string =>
    eta.render(`./${template}`, { ...data, lang, t: translator(lang) });
}

/**
 * Options of a page cookie: HttpOnly, SameSite=Lax, Path=/ and no Domain (what the `__Host-` prefix
 * demands, RFC 6265bis §4.1.3.2), Secure under https.
 */
export function pageCookieOptions(secure: boolean, maxAgeSeconds: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, maxAge: maxAgeSeconds };
}
