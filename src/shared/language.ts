export type Language = 'en' | 'es';

/** `value` when it names one of the page languages, else null. */
export function asLanguage(value: unknown): Language | null {
  return value === 'en' || value === 'es' ? value : null;
}

/**
 * Language of the authorization pages (docs/decisions.md#page-languages): `lang` when it is en or es;
 * else Accept-Language, where Spanish ranked above English (by q-value, then order) selects Spanish;
 * else English.
 */
export function pickLanguage(lang: string | undefined | null, acceptLanguage: string | undefined): Language {
  const chosen = asLanguage(lang);
  if (chosen) return chosen;
  if (!acceptLanguage) return 'en';
  let best: { lang: Language; q: number; index: number } | undefined;
  acceptLanguage.split(',').forEach((part, index) => {
    const [tag = '', ...params] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (primary !== 'en' && primary !== 'es') return;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) return;
    if (!best || q > best.q) best = { lang: primary, q, index };
  });
  return best?.lang ?? 'en';
}
