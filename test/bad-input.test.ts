import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServiceWithLogs, type LoggedService } from './helpers/logged-service.js';
import { createTestApp } from './helpers/service.js';
import { sharedDataDir } from './helpers/shared-data.js';
import { issueTokens, type TokenBody } from './helpers/token-calls.js';

/**
 * A fuzzer over every operation of the OpenAPI documents — the service's own (both services) and CMS's
 * (plan API, price lookup; paths not served yet answer 404): ±Infinity, 1e309, a 400-digit number and a
 * NUL byte in every query parameter and path id, one at a time with the others valid, and 1e309 and a
 * 400-digit number in every number of the plan API's JSON bodies, and bodies nested thousands of levels
 * deep to every POST. No answer may be a 5xx, every one must be in its surface's documented shape, and no
 * input may reach an error-level log line. Runs on the suite's database (SQLite or PostgreSQL).
 */

/** The sandbox key until `before` makes one whose limits the fuzzer cannot reach. */
let KEY = 'd687412e7b53146b2631dc01974ad0a4';
const BAD_VALUES = ['Infinity', '-Infinity', '1e309', '9'.repeat(400), 'a%00b'];
const NUMERIC_BAD = new Set(BAD_VALUES.slice(0, 4));
const BAD_NUMBERS = ['1e309', '9'.repeat(400)];
const NOT_FOUND = { status_code: 404, message: 'Not found.' };

interface Parameter {
  name: string;
  in: string;
  type?: string;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  /** The served document declares the operation (so a bad number must be refused, not just survived). */
  served: boolean;
}

let running: LoggedService;
let tokens: TokenBody;
let year: number;
let planId: string;
before(async () => {
  running = await startServiceWithLogs();
  KEY = (
    await running.service.plans.apiKeys.createKey(
      { name: 'fuzzer', perSecond: 1_000_000, perMinute: 100_000_000, expiresAt: null },
      Date.now(),
    )
  ).key;
  tokens = await issueTokens(running, await createTestApp(running));
  const years = (await (await fetch(`${running.url}/api/v1/market-years?apikey=${KEY}`)).json()) as {
    current: number;
  };
  year = years.current;
  const search = await fetch(`${running.url}/api/v1/plans/search?apikey=${KEY}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(householdBody()),
  });
  planId = ((await search.json()) as { plans: { id: string }[] }).plans[0]!.id;
});
after(() => running.close());

function householdBody(): Record<string, unknown> {
  return {
    household: {
      income: 40000,
      people: [{ age: 30, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
    },
    market: 'Individual',
    place: { countyfips: '48091', state: 'TX', zipcode: '78130' },
    ...(year ? { year } : {}),
  };
}

/** A valid value for each parameter name the documents use. */
function validValue(name: string): string {
  const values: Record<string, string> = {
    year: String(year),
    zipcode: '78130',
    fips: '48091',
    countyfips: '48091',
    state: 'TX',
    abbrev: 'TX',
    plan_id: planId,
    planids: planId,
    issuer_id: planId.slice(0, 5),
    quarter: '1',
    limit: '10',
    offset: '0',
    size: '2',
    income: '40000',
    market: 'Individual',
    q: 'insulin',
    drugs: '1049589',
    providerids: '1234567890',
    type: 'Individual',
    term: 'knee',
    code: '27447',
    id: tokens.patient,
    patientId: tokens.patient,
    grantId: 'grant',
    _count: '10',
    startIndex: '0',
  };
  return values[name] ?? 'x';
}

/** Swagger 2.0 (CMS's plan API) or OpenAPI 3 operations, with `$ref` parameters resolved. */
function operationsOf(doc: Record<string, unknown>, prefix: string, served: boolean): Operation[] {
  const shared = (doc.parameters ?? {}) as Record<string, Record<string, unknown>>;
  const resolve = (p: Record<string, unknown>): Record<string, unknown> => {
    const ref = p.$ref;
    return typeof ref === 'string' ? (shared[ref.split('/').pop()!] ?? {}) : p;
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    const common = (item.parameters ?? []) as Record<string, unknown>[];
    for (const [method, value] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      const op = value as { parameters?: Record<string, unknown>[] };
      const parameters = [...common, ...(op.parameters ?? [])].map(resolve).map((p) => {
        const schema = p.schema as { type?: string } | undefined;
        return { name: String(p.name), in: String(p.in), type: (p.type as string) ?? schema?.type };
      });
      operations.push({ method: method.toUpperCase(), path: prefix + path, parameters, served });
    }
  }
  return operations;
}

/** FHIR search parameters (docs/decisions.md#fhir-search), which the served document does not list. */
const FHIR_SEARCH: Parameter[] = [
  '_count',
  'startIndex',
  '_lastUpdated',
  'service-date',
  'type',
  'patient',
].map((name) => ({ name, in: 'query' }));

function allOperations(doc: Record<string, unknown>): Operation[] {
  const operations = operationsOf(doc, '', true).filter((op) => op.path !== '/openapi.json');
  for (const op of operations) {
    if (/^\/v2\/fhir\/(Patient|Coverage|ExplanationOfBenefit)$/.test(op.path))
      op.parameters.push(...FHIR_SEARCH);
  }
  const cms = join(sharedDataDir, '../reference/marketplace-api/openapi.json');
  if (existsSync(cms))
    operations.push(...operationsOf(JSON.parse(readFileSync(cms, 'utf8')), '/api/v1', false));
  const ppl = join(sharedDataDir, '../reference/price-lookup-api/openapi.json');
  if (existsSync(ppl))
    operations.push(...operationsOf(JSON.parse(readFileSync(ppl, 'utf8')), '/ppl/api/v1', false));
  return operations;
}

function urlOf(op: Operation, bad?: { name: string; value: string }): string {
  let path = op.path;
  const query = new URLSearchParams();
  const raw: string[] = [];
  for (const p of op.parameters) {
    const isBad = bad?.name === p.name;
    const value = isBad ? bad.value : validValue(p.name);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, isBad ? value : encodeURIComponent(value));
    else if (p.in === 'query' && p.name !== 'apikey') {
      // A bad value goes as written (it is already percent-encoded), the others encoded.
      if (isBad) raw.push(`${encodeURIComponent(p.name)}=${value}`);
      else query.set(p.name, value);
    }
  }
  if (path.startsWith('/api/v1')) query.set('apikey', KEY);
  const text = [query.toString(), ...raw].filter(Boolean).join('&');
  return `${path}${text ? `?${text}` : ''}`;
}

interface Answer {
  status: number;
  type: string;
  text: string;
}

async function send(
  op: Operation,
  url: string,
  body?: string,
  contentType = 'application/json',
): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${tokens.access_token}` };
  if (body !== undefined) headers['content-type'] = contentType;
  else if (op.method !== 'GET' && op.method !== 'DELETE')
    headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await fetch(running.url + url, {
    method: op.method,
    headers,
    body: body ?? (op.method === 'GET' || op.method === 'DELETE' ? undefined : ''),
    redirect: 'manual',
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

/** The documented error shape of the surface `path` belongs to. */
function assertShape(path: string, answer: Answer, label: string): void {
  assert.ok(answer.status < 500, `${label}: ${answer.status} ${answer.text.slice(0, 300)}`);
  if (answer.status < 400) return;
  const json = (): Record<string, unknown> => {
    assert.match(answer.type, /json/, `${label}: ${answer.type}`);
    return JSON.parse(answer.text) as Record<string, unknown>;
  };
  if (path.startsWith('/api/v1')) {
    const body = json();
    const keys = Object.keys(body).sort().join(',');
    // The plan API's own errors, or the gateway's (Kong) for a key, a limit or an unknown path.
    if (keys === 'message') assert.ok([401, 404, 429].includes(answer.status), `${label}: ${answer.text}`);
    else assert.equal(keys, 'code,error,message,status', `${label}: ${answer.text}`);
  } else if (/^\/v2\/(fhir|connect\/userinfo|o\/tokens)/.test(path)) {
    assert.equal(typeof json().detail, 'string', `${label}: ${answer.text}`);
  } else if (/^\/v2\/o\/(token|revoke)/.test(path)) {
    assert.equal(typeof json().error, 'string', `${label}: ${answer.text}`);
  } else if (/^\/v2\/(o\/authorize|accounts)/.test(path)) {
    // A consent id that is not a UUID is a path no route serves (docs/decisions.md#consent-page): the
    // service's 404.
    if (answer.status === 404 && /json/.test(answer.type)) assert.deepEqual(json(), NOT_FOUND, label);
    else assert.match(answer.type, /^text\/html/, `${label}: ${answer.type}`);
  } else if (path.startsWith('/v2/o/expire_authenticated_user')) {
    assert.match(answer.type, /^text\/plain/, `${label}: ${answer.type}`);
  } else {
    json();
  }
}

/** Runs `tasks` with at most `width` at a time; fails with every task's failure listed. */
async function inParallel(tasks: (() => Promise<void>)[], width = 6): Promise<void> {
  let next = 0;
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        await tasks[next++]!().catch((error: unknown) => {
          failures.push(error instanceof Error ? error.message.split('\n')[0]! : String(error));
        });
      }
    }),
  );
  assert.deepEqual(failures, [], `${failures.length} of ${tasks.length} failed`);
}

describe('bad numbers and NUL bytes in every parameter of every operation', () => {
  test('query parameters and path ids: no 5xx, every answer in its shape, bad numbers refused', async () => {
    const doc = (await (await fetch(`${running.url}/openapi.json`)).json()) as Record<string, unknown>;
    const operations = allOperations(doc);
    assert.ok(operations.length > 60, `operations: ${operations.length}`);
    const tasks: (() => Promise<void>)[] = [];
    let sent = 0;
    for (const op of operations) {
      for (const p of op.parameters.filter(
        (x) => (x.in === 'query' || x.in === 'path') && x.name !== 'apikey',
      )) {
        for (const value of BAD_VALUES) {
          tasks.push(async () => {
            const url = urlOf(op, { name: p.name, value });
            const label = `${op.method} ${url.slice(0, 160)}`;
            const answer = await send(op, url);
            sent += 1;
            assertShape(op.path, answer, label);
            // Where we serve the operation, a bad number in a numeric parameter and a NUL anywhere are
            // refused (4xx), never answered as if they meant something.
            const numeric = p.type === 'integer' || p.type === 'number';
            if (op.served && ((numeric && NUMERIC_BAD.has(value)) || value.includes('%00'))) {
              assert.ok(answer.status >= 400, `${label}: ${answer.status} ${answer.text.slice(0, 200)}`);
            }
          });
        }
      }
    }
    await inParallel(tasks);
    assert.ok(sent > 300, `requests: ${sent}`);
  });

  test('numbers of the plan API JSON bodies: 1e309 and 400 digits are refused with 1003', async () => {
    const doc = (await (await fetch(`${running.url}/openapi.json`)).json()) as Record<string, unknown>;
    const posts = operationsOf(doc, '', true).filter(
      (op) => op.method === 'POST' && op.path.startsWith('/api/v1'),
    );
    assert.ok(posts.length >= 8, `plan API POSTs: ${posts.length}`);
    const base = {
      ...householdBody(),
      plan_ids: [planId],
      hra: 400,
      aptc_override: 250,
      filter: { premium: 900, deductible: 8000, quality_rating: 1 },
    };
    // Every number of the body, by its path.
    const numbers: string[][] = [];
    const walk = (value: unknown, path: string[]) => {
      if (typeof value === 'number') numbers.push(path);
      else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    };
    walk(base, []);
    const tasks: (() => Promise<void>)[] = [];
    for (const op of posts) {
      const url = urlOf(op);
      for (const path of numbers) {
        for (const bad of BAD_NUMBERS) {
          tasks.push(async () => {
            const copy = structuredClone(base) as Record<string, unknown>;
            let parent = copy as Record<string, unknown>;
            for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
            parent[path.at(-1)!] = '__BAD__';
            const body = JSON.stringify(copy).replace('"__BAD__"', bad);
            const answer = await send(op, url, body);
            const label = `${op.method} ${op.path} ${path.join('.')}=${bad.slice(0, 12)}`;
            assertShape(op.path, answer, label);
            assert.ok(answer.status >= 400, `${label}: ${answer.status} ${answer.text.slice(0, 200)}`);
          });
        }
      }
    }
    await inParallel(tasks);
  });

  test('the refusal names the parameter', async () => {
    const answer = await fetch(`${running.url}/api/v1/issuers?offset=Infinity&apikey=${KEY}`);
    assert.equal(answer.status, 400);
    const body = (await answer.json()) as Record<string, string>;
    assert.equal(body.code, '1003');
    assert.match(body.error!, /offset/);
    const fhir = await fetch(`${running.url}/v2/fhir/Patient/a%00b`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(fhir.status, 400);
    assert.match(((await fhir.json()) as { detail: string }).detail, /NUL/);
  });
});

/** `{"a":{"a":…1…}}` and `[[…]]`, `depth` levels deep. */
const DEEP_BODIES = [10_000, 30_000].flatMap((depth) => [
  { label: `object ${depth} deep`, text: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) },
  { label: `array ${depth} deep`, text: '['.repeat(depth) + ']'.repeat(depth) },
]);

describe('bodies nested far deeper than any route documents', () => {
  test('every POST of both documents refuses them in its shape, naming the limit', async () => {
    const doc = (await (await fetch(`${running.url}/openapi.json`)).json()) as Record<string, unknown>;
    const posts = allOperations(doc).filter((op) => op.method === 'POST');
    assert.ok(posts.length >= 20, `POST operations: ${posts.length}`);
    const tasks: (() => Promise<void>)[] = [];
    for (const op of posts) {
      for (const contentType of ['application/json', 'application/json; charset=latin1']) {
        for (const deep of DEEP_BODIES) {
          tasks.push(async () => {
            const answer = await send(op, urlOf(op), deep.text, contentType);
            const label = `${op.method} ${op.path} ${contentType} ${deep.label}`;
            assertShape(op.path, answer, label);
            if (op.served && op.path.startsWith('/api/v1')) {
              // A body over the size limit is refused for that first (413); within it, for its depth.
              assert.ok([400, 413].includes(answer.status), `${label}: ${answer.text.slice(0, 200)}`);
              if (answer.status === 400) assert.match(answer.text, /nest deeper than 32 levels/, label);
            }
          });
        }
      }
    }
    await inParallel(tasks);
  });

  test('the authorize endpoint answers a deep JSON body of any charset with its 400 page', async () => {
    for (const contentType of ['application/json', 'application/json; charset=latin1']) {
      const answer = await fetch(`${running.url}/v2/o/authorize/`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: DEEP_BODIES[1]!.text,
      });
      assert.equal(answer.status, 400, contentType);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await answer.text(), /nest deeper than 32 levels/);
    }
  });
});

describe('the logs after every request above', () => {
  // Runs last (node:test keeps file order): nothing a client sent may have raised an error-level line.
  test('hold no error-level line', () => {
    const errors = running.records().filter((r) => typeof r.level === 'number' && r.level >= 50);
    assert.deepEqual(
      errors.map((r) => String(r.msg) + ' ' + JSON.stringify(r.err ?? '').slice(0, 200)),
      [],
    );
  });
});
