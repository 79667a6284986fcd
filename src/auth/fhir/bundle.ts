import { randomUUID } from 'node:crypto';

export interface Page {
  base: string;
  type: string;
  total: number;
  startIndex: number;
  count: number;
  /** Filter parameters to carry into every link. */
  echo: [string, string][];
  /** Raw JSON bodies of the page's resources. */
  entries: { id: string; body: string }[];
  now: number;
}

function link(page: Page, startIndex: number): string {
  const params = new URLSearchParams(page.echo);
  params.set('startIndex', String(startIndex));
  params.set('_count', String(page.count));
  return `${page.base}/v2/fhir/${page.type}?${params.toString()}`;
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
  const entries = page.entries.map(
    (e) => `{"fullUrl":${JSON.stringify(`${page.base}/v2/fhir/${page.type}/${e.id}`)},"resource":${e.body}}`,
  );
  return `${JSON.stringify(head).slice(0, -1)},"entry":[${entries.join(',')}]}`;
}
