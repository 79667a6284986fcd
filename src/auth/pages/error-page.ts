import type { FastifyRequest } from 'fastify';
import { asLanguage, pickLanguage } from '../oauth/language.js';
import { renderErrorPage } from './render.js';

/** The same GET with `lang` switched, so the enrollee can read the error in the other language. */
function otherLanguageUrl(url: string, current: 'en' | 'es'): string {
  const parsed = new URL(url, 'http://local');
  parsed.searchParams.set('lang', current === 'en' ? 'es' : 'en');
  return `${parsed.pathname}${parsed.search}`;
}

function pageLink(value: unknown): { href: string; text: string } | undefined {
  const link = value as { href?: unknown; text?: unknown } | undefined;
  return typeof link?.href === 'string' && typeof link.text === 'string'
    ? { href: link.href, text: link.text }
    : undefined;
}

/** Renders the error page for the HTTP kernel, in the language the request asks for. */
export function renderErrorForRequest(
  request: FastifyRequest,
  _template: string,
  data: Record<string, unknown>,
) {
  const query = request.query as Record<string, unknown> | undefined;
  const known = asLanguage(data.lang) ?? undefined;
  const lang =
    known ??
    pickLanguage(
      typeof query?.lang === 'string' ? query.lang : undefined,
      request.headers['accept-language'],
    );
  return renderErrorPage(
    lang,
    Number(data.status ?? 400),
    String(data.title ?? ''),
    String(data.message ?? ''),
    typeof data.switchUrl === 'string'
      ? data.switchUrl
      : request.method === 'GET'
        ? otherLanguageUrl(request.url, lang)
        : undefined,
    pageLink(data.link),
  );
}
