import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';

/** Pages of the search endpoints that answer `next` / `prev` URLs (CMS document: drugs and providers). */
export const PAGE = { default: 10, max: 100, maxOffset: 10_000 } as const;

// Optional with a default: validation fills the default in (Ajv `useDefaults`), and the OpenAPI document
// does not list a parameter with a default as required.
export const Paging = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: PAGE.max, default: PAGE.default, description: 'page size' }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: PAGE.maxOffset, default: 0, description: 'results to skip' }),
  ),
});

export const PagingLinks = Type.Object({
  next: Type.Optional(Type.String({ description: 'URL of the next page of results, if any' })),
  prev: Type.Optional(Type.String({ description: 'URL of the previous page of results, if any' })),
});

/**
 * The neighbouring pages' URLs: the request's own path and query with `offset` moved, without the key
 * (a link is shared or logged; the client adds its own `apikey`).
 */
export function nextAndPrev(
  request: FastifyRequest,
  page: { limit: number; offset: number },
  hasMore: boolean,
): { next?: string; prev?: string } {
  const url = new URL(request.url, 'http://localhost');
  url.searchParams.delete('apikey');
  const { limit, offset } = page;
  const at = (o: number) => {
    url.searchParams.set('offset', String(o));
    url.searchParams.set('limit', String(limit));
    return `${url.pathname}?${url.searchParams.toString()}`;
  };
  return {
    ...(hasMore ? { next: at(offset + limit) } : {}),
    ...(offset > 0 ? { prev: at(Math.max(0, offset - limit)) } : {}),
  };
}
