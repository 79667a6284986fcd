import { randomUUID } from 'node:crypto';
import { formatCursor, type PageCursor } from './search-params.js';

/** A resource of a page, as its stored JSON body. */
export interface PageEntry {
  id: string;
  body: string;
  /** `body` as UTF-8, when the store keeps it so (a kept body on PostgreSQL): spliced in as it is. */
  bytes?: Buffer;
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
  /** The position the request gave (`cursor`), repeated in `self`. */
  cursor?: PageCursor;
  /** Whether matches lie before the page's first entry and after its last one, in id order. */
  before: boolean;
  after: boolean;
  /** Filter parameters to carry into every link. */
  echo: [string, string][];
  /** Raw JSON bodies of the page's matches, of type `type`, in id order. */
  entries: PageEntry[];
  /** Resources the matches refer to (`_include`): not counted in `total`, not paged. */
  included?: IncludedEntry[];
  now: number;
}

function link(page: Page, startIndex: number, cursor?: PageCursor): string {
  const params = new URLSearchParams(page.echo);
  params.set('startIndex', String(startIndex));
  params.set('_count', String(page.count));
  if (cursor) params.set('cursor', formatCursor(cursor));
  return `${page.base}/v2/fhir/${page.type}?${params.toString()}`;
}

/**
 * The page links (docs/decisions.md#fhir-paging): each says where its page starts as `startIndex`, the
 * offset BB2 clients read, and, past the first page, as a `cursor` from a neighbouring entry's id that
 * carries this search's `total`; `first` starts the search again and counts anew.
 */
function links(page: Page): { relation: string; url: string }[] {
  const { total, startIndex, count, entries } = page;
  const lastStart = count === 0 ? 0 : Math.max(0, Math.floor((total - 1) / count) * count);
  const from = (direction: PageCursor['direction'], entry: PageEntry | undefined) =>
    entry && { direction, total, id: entry.id };
  const result: [string, number, PageCursor?][] = [
    ['self', startIndex, page.cursor],
    ['first', 0],
  ];
  if (count > 0 && page.before) {
    result.push(['previous', Math.max(0, startIndex - count), from('before', entries[0])]);
  }
  if (count > 0 && page.after) {
    result.push(['next', startIndex + count, from('after', entries[entries.length - 1])]);
  }
  result.push(['last', lastStart, count === 0 ? undefined : { direction: 'before', total }]);
  return result.map(([relation, start, cursor]) => ({ relation, url: link(page, start, cursor) }));
}

/**
 * FHIR R4 §3.1.1.7 (search.html#Summary): `search.mode` tells a match from a resource included for it. The
 * entry's text before and after its resource, and the resource: its bytes when it has them, else its text.
 */
function entry(base: string, type: string, e: PageEntry, mode: 'match' | 'include'): (string | Buffer)[] {
  const fullUrl = JSON.stringify(`${base}/v2/fhir/${type}/${e.id}`);
  return [`{"fullUrl":${fullUrl},"resource":`, e.bytes ?? e.body, `,"search":{"mode":"${mode}"}}`];
}

/**
 * A FHIR `searchset` Bundle with `total` and absolute `self/first/previous/next/last` links on the public
 * origin (clients follow `next` only when it starts with their base URL). Stored bodies are spliced in as
 * they are, without parsing them again; when some come as bytes the Bundle is bytes (UTF-8), the rest of
 * its text encoded around them, else it is text.
 */
export function searchsetBundle(page: Page): string | Buffer {
  const head = {
    resourceType: 'Bundle',
    id: randomUUID(),
    meta: { lastUpdated: new Date(page.now).toISOString() },
    type: 'searchset',
    total: page.total,
    link: links(page),
  };
  const entries = [
    ...page.entries.map((e) => entry(page.base, page.type, e, 'match')),
    ...(page.included ?? []).map((e) => entry(page.base, e.type, e, 'include')),
  ];
  const parts = [
    `${JSON.stringify(head).slice(0, -1)},"entry":[`,
    ...entries.flatMap((pieces, i) => (i === 0 ? pieces : [',', ...pieces])),
    ']}',
  ];
  if (parts.every((part) => typeof part === 'string')) return parts.join('');
  // Runs of text between the bytes are encoded as one.
  const chunks: Buffer[] = [];
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    chunks.push(Buffer.from(text), part);
    text = '';
  }
  chunks.push(Buffer.from(text));
  return Buffer.concat(chunks);
}
