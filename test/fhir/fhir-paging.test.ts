import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { minimalEob } from '../helpers/minimal-eob.js';
import { startCountingService, type CountingService } from '../helpers/round-trips.js';
import { createTestApp, onPostgres } from '../helpers/service.js';
import { enrollee, issueTokens, type TokenBody } from '../helpers/token-calls.js';

/**
 * Search paging (docs/decisions.md#fhir-paging): `startIndex` alone skips that many matches; the links carry
 * it and, past the first page, a `cursor` that seeks from an entry's id and carries the search's `total`.
 * Over the sandbox's claims as the RIF ingest stores them (each body made at its first read), on whichever
 * database the suite runs.
 */

interface Bundle {
  total: number;
  link: { relation: string; url: string }[];
  entry?: {
    fullUrl: string;
    resource: { resourceType: string; id: string; meta?: { versionId?: string } };
  }[];
}

const PID = enrollee(0).patientId;
const EOB = 'ExplanationOfBenefit';

let running: CountingService;
let tokens: TokenBody;
/** The patient's EOB ids in the database's own id order, as stored before any test ran. */
let ids: string[];

before(async () => {
  running = await startCountingService({ SANDBOX_ENROLLEES: '2' });
  tokens = await issueTokens(running, await createTestApp(running), { enrollee: 0 });
  ids = await storedIds();
  assert.ok(ids.length >= 20, `sandbox EOBs: ${ids.length}`);
});
after(() => running.close());

/** The patient's EOB ids in the database's id order: all of them, or those whose body is (not yet) made. */
async function storedIds(bodies?: 'made' | 'unmade'): Promise<string[]> {
  let query = running.service.storage.db
    .selectFrom('fhir_resources')
    .select('id')
    .where('resource_type', '=', EOB)
    .where('patient_id', '=', PID);
  if (bodies) query = query.where('body', bodies === 'made' ? '!=' : '=', '');
  return (await query.orderBy('id').execute()).map((r) => r.id);
}

async function get(path: string) {
  const response = await fetch(`${running.url}${path.replace(/^https?:\/\/[^/]+/, '')}`, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as unknown };
}

async function search(path: string): Promise<Bundle> {
  const answer = await get(path);
  assert.equal(answer.status, 200, `${path}: ${answer.text}`);
  return answer.json as Bundle;
}

const matchIds = (b: Bundle) => (b.entry ?? []).map((e) => e.resource.id);
const linkOf = (b: Bundle, relation: string) => {
  const found = b.link.find((l) => l.relation === relation);
  return found && new URL(found.url);
};
const relations = (b: Bundle) => b.link.map((l) => l.relation).sort();

/** Every page from `path` on by `relation` links (`next` or `previous`), each page's ids in order. */
async function walk(
  path: string,
  relation: 'next' | 'previous',
): Promise<{ pages: string[][]; bundles: Bundle[] }> {
  const bundles: Bundle[] = [];
  for (let url: string | undefined = path; url;) {
    const bundle = await search(url);
    bundles.push(bundle);
    assert.ok(bundles.length <= 200, 'the links loop');
    url = linkOf(bundle, relation)?.href;
  }
  return { pages: bundles.map(matchIds), bundles };
}

/** A minimal ExplanationOfBenefit of the patient, stored as `fhir import` stores one. */
async function storeClaim(id: string): Promise<void> {
  await running.service.fhir.fhir.importAll((writer) =>
    writer.upsert([minimalEob(id, PID, running.clock.now())]),
  );
}

async function deleteClaims(claims: string[]): Promise<void> {
  const { db } = running.service.storage;
  for (const table of ['fhir_resources', 'fhir_search_tokens', 'fhir_search_dates'] as const) {
    await db.deleteFrom(table).where('resource_type', '=', EOB).where('id', 'in', claims).execute();
  }
}

describe('following the links', () => {
  test('the claims are stored as their RIF rows, bodies made at the first read', async () => {
    assert.deepEqual(await storedIds('unmade'), ids);
  });

  test('a page read for the first time: one statement reads it, one stores the bodies it made', async () => {
    const { result, statements } = await running.statementsDuring(() =>
      search(`/v2/fhir/${EOB}?_count=5&startIndex=5`),
    );
    assert.deepEqual(matchIds(result), ids.slice(5, 10));
    const touching = statements.filter((s) => /fhir_resources/.test(s));
    assert.equal(touching.length, 2, touching.join('\n'));
    assert.match(touching[1]!, /^update/i);
    assert.deepEqual(await storedIds('made'), ids.slice(5, 10));
  });

  test('next serves every claim once, in id order; startIndex counts on; the cursor carries the total', async () => {
    const { pages, bundles } = await walk(`/v2/fhir/${EOB}?_count=3`, 'next');
    assert.deepEqual(pages.flat(), ids);
    assert.equal(pages.length, Math.ceil(ids.length / 3));
    bundles.forEach((bundle, i) => {
      assert.equal(bundle.total, ids.length);
      const self = linkOf(bundle, 'self')!;
      assert.equal(self.searchParams.get('startIndex'), String(3 * i));
      assert.equal(self.searchParams.get('_count'), '3');
      const next = linkOf(bundle, 'next');
      if (i === bundles.length - 1) return assert.equal(next, undefined);
      assert.equal(next!.searchParams.get('startIndex'), String(3 * (i + 1)));
      assert.equal(next!.searchParams.get('cursor'), `after.${ids.length}.${pages[i]!.at(-1)}`);
    });
    assert.deepEqual(relations(bundles[0]!), ['first', 'last', 'next', 'self']);
    assert.equal(linkOf(bundles[0]!, 'self')!.searchParams.get('cursor'), null);
    assert.equal(linkOf(bundles[1]!, 'first')!.searchParams.get('cursor'), null);
  });

  test('each body is the whole resource, and a RIF claim served once is stored made', async () => {
    for (const entry of (await search(`/v2/fhir/${EOB}?_count=50`)).entry!) {
      assert.equal(entry.resource.resourceType, EOB);
      assert.equal(entry.resource.meta?.versionId, '1');
    }
    assert.deepEqual(await storedIds('unmade'), []);
  });

  test('previous from the last page walks back through the same pages', async () => {
    const first = await search(`/v2/fhir/${EOB}?_count=4`);
    const last = linkOf(first, 'last')!;
    const lastStart = Math.floor((ids.length - 1) / 4) * 4;
    assert.equal(last.searchParams.get('startIndex'), String(lastStart));
    assert.equal(last.searchParams.get('cursor'), `before.${ids.length}`);
    const { pages, bundles } = await walk(last.href, 'previous');
    assert.deepEqual(pages[0], ids.slice(lastStart));
    assert.deepEqual(pages.reverse().flat(), ids);
    assert.deepEqual(
      bundles.map((b) => linkOf(b, 'self')!.searchParams.get('startIndex')).reverse(),
      pages.map((_, i) => String(4 * i)),
    );
    assert.equal(linkOf(bundles.at(-1)!, 'previous'), undefined);
  });
});

describe('startIndex alone is an offset, as Blue Button reads it', () => {
  test('any startIndex serves the matches from there; its next link goes on by cursor', async () => {
    for (const start of [0, 1, 5, ids.length - 1]) {
      const bundle = await search(`/v2/fhir/${EOB}?_count=4&startIndex=${start}`);
      assert.deepEqual(matchIds(bundle), ids.slice(start, start + 4), `startIndex ${start}`);
      assert.equal(bundle.total, ids.length);
      assert.equal(linkOf(bundle, 'previous') === undefined, start === 0, `startIndex ${start}`);
      const next = linkOf(bundle, 'next');
      if (start + 4 >= ids.length) {
        assert.equal(next, undefined);
        continue;
      }
      assert.equal(next!.searchParams.get('startIndex'), String(start + 4));
      assert.deepEqual(matchIds(await search(next!.href)), ids.slice(start + 4, start + 8));
    }
  });

  test('past the end: no entries, a previous link, no next', async () => {
    for (const start of [ids.length, ids.length + 7]) {
      const bundle = await search(`/v2/fhir/${EOB}?_count=4&startIndex=${start}`);
      assert.deepEqual(matchIds(bundle), []);
      assert.equal(bundle.total, ids.length);
      assert.deepEqual(relations(bundle), ['first', 'last', 'previous', 'self']);
      const previous = await search(linkOf(bundle, 'previous')!.href);
      assert.deepEqual(matchIds(previous), ids.slice(start - 4, start));
    }
  });

  test('a cursor page and the startIndex page it names hold the same claims', async () => {
    const { bundles } = await walk(`/v2/fhir/${EOB}?_count=5`, 'next');
    for (const bundle of bundles.slice(1)) {
      const start = linkOf(bundle, 'self')!.searchParams.get('startIndex');
      const byOffset = await search(`/v2/fhir/${EOB}?_count=5&startIndex=${start}`);
      assert.deepEqual(matchIds(bundle), matchIds(byOffset), `startIndex ${start}`);
    }
  });
});

describe('_count edge cases', () => {
  test('_count=0: the total alone, links without a cursor', async () => {
    const bundle = await search(`/v2/fhir/${EOB}?_count=0`);
    assert.equal(bundle.total, ids.length);
    assert.deepEqual(matchIds(bundle), []);
    assert.deepEqual(relations(bundle), ['first', 'last', 'self']);
    for (const { url } of bundle.link) assert.equal(new URL(url).searchParams.get('cursor'), null);
  });

  test('_count=0 with a cursor: the total it carries, nothing read', async () => {
    const bundle = await search(`/v2/fhir/${EOB}?_count=0&cursor=after.12345.${ids[0]}`);
    assert.equal(bundle.total, 12345);
    assert.deepEqual(matchIds(bundle), []);
  });

  test('_count=1 steps through every claim; _count=50 holds them all, without next', async () => {
    assert.deepEqual((await walk(`/v2/fhir/${EOB}?_count=1`, 'next')).pages.flat(), ids);
    const all = await search(`/v2/fhir/${EOB}?_count=50`);
    assert.deepEqual(matchIds(all), ids.slice(0, 50));
    assert.equal(linkOf(all, 'next') === undefined, ids.length <= 50);
  });

  test('the last page holds what startIndex leaves of the total', async () => {
    const count = 7;
    const first = await search(`/v2/fhir/${EOB}?_count=${count}`);
    const last = await search(linkOf(first, 'last')!.href);
    const lastStart = Math.floor((ids.length - 1) / count) * count;
    assert.deepEqual(matchIds(last), ids.slice(lastStart));
    assert.equal(linkOf(last, 'next'), undefined);
  });

  test('a cursor we did not make is 400 in the documented shape', async () => {
    for (const cursor of [
      'x',
      'after',
      'after.',
      'after.-1',
      'sideways.3.carrier--1',
      'after.3.carrier 1',
      'after.1234567890123456.carrier--1',
      `after.3.${'a'.repeat(65)}`,
    ]) {
      const answer = await get(`/v2/fhir/${EOB}?cursor=${encodeURIComponent(cursor)}`);
      assert.equal(answer.status, 400, cursor);
      assert.deepEqual(answer.json, { detail: 'the cursor parameter value is not valid' }, cursor);
    }
  });

  test('the cursor keeps the filters: the links of a filtered search page through its matches only', async () => {
    const carriers = ids.filter((id) => id.startsWith('carrier-'));
    const { pages, bundles } = await walk(`/v2/fhir/${EOB}?type=carrier&_count=2`, 'next');
    assert.deepEqual(pages.flat(), carriers);
    for (const bundle of bundles) {
      assert.equal(bundle.total, carriers.length);
      assert.equal(linkOf(bundle, 'self')!.searchParams.get('type'), 'carrier');
    }
  });
});

describe('claims stored while a client pages', () => {
  const EARLY = 'carrier--0';
  const LATE = 'snf--99999999999';
  after(() => deleteClaims([EARLY, LATE]));

  test('none skipped or served twice; one stored past the page is served; total stays the starting count', async () => {
    const first = await search(`/v2/fhir/${EOB}?_count=4`);
    const second = await search(linkOf(first, 'next')!.href);
    // Stored before the pages already served (it sorts first) and after them (it sorts last).
    await storeClaim(EARLY);
    await storeClaim(LATE);
    const now = await storedIds();
    assert.equal(now[0], EARLY);
    assert.equal(now.at(-1), LATE);
    const rest = await walk(linkOf(second, 'next')!.href, 'next');
    const served = [...matchIds(first), ...matchIds(second), ...rest.pages.flat()];
    assert.deepEqual(served, [...ids, LATE]);
    for (const bundle of rest.bundles) assert.equal(bundle.total, ids.length);
    // Starting again counts anew.
    const again = await search(linkOf(rest.bundles.at(-1)!, 'first')!.href);
    assert.equal(again.total, ids.length + 2);
    assert.equal(matchIds(again)[0], EARLY);
  });

  test('by startIndex alone the same insert would repeat a claim: the cursor is what prevents it', async () => {
    await deleteClaims([EARLY, LATE]);
    const byOffset = await search(`/v2/fhir/${EOB}?_count=4`);
    await storeClaim(EARLY);
    const secondByOffset = await search(`/v2/fhir/${EOB}?_count=4&startIndex=4`);
    assert.equal(matchIds(secondByOffset)[0], matchIds(byOffset).at(-1));
  });
});

describe('statements per page', () => {
  /** The statements a request sent that read or write the resource table. */
  async function resourceStatements(path: string): Promise<string[]> {
    const { statements } = await running.statementsDuring(() => search(path));
    return statements.filter((s) => /fhir_resources/.test(s));
  }

  test('the first page is one statement (page and count); a cursor page one, without a count', async () => {
    const first = await resourceStatements(`/v2/fhir/${EOB}?_count=5`);
    assert.equal(first.length, 1, first.join('\n'));
    // PostgreSQL reads the count the database keeps per patient (docs/decisions.md#fhir-patient-counts).
    assert.match(first[0]!, onPostgres ? /fhir_patient_counts/ : /count\(\*\)/i);
    const next = linkOf(await search(`/v2/fhir/${EOB}?_count=5`), 'next')!;
    const paged = await resourceStatements(next.href);
    assert.equal(paged.length, 1, paged.join('\n'));
    assert.doesNotMatch(paged[0]!, /count\(/i);
    assert.doesNotMatch(paged[0]!, /offset/i);
  });

  test('next pages followed at once are each their own page', async () => {
    // The next link of every page of 3, then all of them followed at once.
    const { bundles } = await walk(`/v2/fhir/${EOB}?_count=3`, 'next');
    const links = bundles.map((b) => linkOf(b, 'next')?.href).filter((l): l is string => l !== undefined);
    assert.ok(links.length >= 5, `next links: ${links.length}`);
    const pages = await Promise.all(links.map(search));
    assert.deepEqual(pages.map(matchIds), bundles.slice(1).map(matchIds));
  });

  test('reads made at once each get their own resource, or 404', async () => {
    const asked = [...ids.slice(0, 6), 'no-such-claim', ids[2]!];
    const result = await Promise.all(asked.map((id) => get(`/v2/fhir/${EOB}/${id}`)));
    assert.deepEqual(
      result.map((r) => r.status),
      [200, 200, 200, 200, 200, 200, 404, 200],
    );
    for (const [i, read] of result.entries()) {
      if (read.status === 200) assert.equal((read.json as { id: string }).id, asked[i]);
    }
  });

  test('reads by id asked for at once go out together on PostgreSQL, one statement each on SQLite', async () => {
    const store = running.service.fhir.fhir;
    const asked = [...ids.slice(6, 11), 'no-such-claim', ids[7]!];
    const { result, statements } = await running.statementsDuring(() =>
      Promise.all(asked.map((id) => store.findResource(EOB, id))),
    );
    assert.deepEqual(
      result.map((r) => r?.id),
      [...ids.slice(6, 11), undefined, ids[7]],
    );
    const reads = statements.filter((s) => /fhir_resources/.test(s) && /^\s*select/i.test(s));
    if (running.service.storage.dialect.batchedStatements) {
      // The first goes out at once; the rest, made while it is on its way, share the next statement.
      assert.equal(reads.length, 2, reads.join('\n'));
      assert.match(reads[1]!, /any\(/);
    } else {
      assert.equal(reads.length, asked.length, reads.join('\n'));
    }
  });

  test('a read is one statement', async () => {
    const { statements } = await running.statementsDuring(() => get(`/v2/fhir/${EOB}/${ids[3]}`));
    assert.equal(statements.filter((s) => /fhir_resources/.test(s)).length, 1, statements.join('\n'));
  });
});
