import { randomUUID } from 'node:crypto';

/** A resource of a page, as its stored JSON body. */
export interface PageEntry {
  id: string;
  body: string;
}

/** A resource a match refers to (`_include`), rendered after the matches under its own type. */
export interface IncludedEntry extends PageEntry {
  type: string;
}

export interface Page {
  base: string;
  type: string;
  total: number;
  startIndex: number;
  count: number;
  /** Filter parameters to carry into every link. */
  echo: [string, string][];
  /** Raw JSON bodies of the page's matches, of type `type`. */
  entries: PageEntry[];
  /** Resources the matches refer to (`_include`): not counted in `total`, not paged. */
  included?: IncludedEntry[];
  now: number;
}

function link(page: Page, startIndex: number): string {
  const params = new URLSearchParams(page.echo);
  params.set('startIndex', String(startIndex));
  params.set('_count', String(page.count));
  return `${page.base}/v2/fhir/${page.type}?${params.toString()}`;
}

/** FHIR R4 §3.1.1.7 (search.html#Summary): `search.mode` tells a match from a resource included for it. */
function entry(base: string, type: string, e: PageEntry, mode: 'match' | 'include'): string {
  const fullUrl = JSON.stringify(`${base}/v2/fhir/${type}/${e.id}`);
  return `{"fullUrl":${fullUrl},"resource":${e.body},"search":{"mode":"${mode}"}}`;
}

/**
 * A FHIR `searchset` Bundle with `total` and absolute `self/first/previous/next/last` links on the public
 * origin (clients follow `next` only when it starts with their base URL). Stored bodies are spliced in as
 * they are, without parsing them again.
 */
export function searchsetBundle(page: Page): string {
  const { total, startIndex, count } = page;
  const lastStart = count === 0 ? 0 : Math.max(0, Math.floor((total - 1) / count) * count);
  const links: [string, number][] = [
    ['self', startIndex],
    ['first', 0],
  ];
  if (count > 0 && startIndex > 0) links.push(['previous', Math.max(0, startIndex - count)]);
  if (count > 0 && startIndex + count < total) links.push(['next', startIndex + count]);
  links.push(['last', lastStart]);
  const head = {
    resourceType: 'Bundle',
    id: randomUUID(),
    meta: { lastUpdated: new Date(page.now).toISOString() },
    type: 'searchset',
    total,
    link: links.map(([relation, start]) => ({ relation, url: link(page, start) })),
  };
  const entries = [
    ...page.entries.map((e) => entry(page.base, page.type, e, 'match')),
    ...(page.included ?? []).map((e) => entry(page.base, e.type, e, 'include')),
  ];
  return `${JSON.stringify(head).slice(0, -1)},"entry":[${entries.join(',')}]}`;
}
