import type { FastifyRequest } from 'fastify';
import { invalidInput } from '../errors.js';

interface SchemaFailure {
  instancePath: string;
  message?: string;
  params?: { missingProperty?: string; additionalProperty?: string };
}

/** Wording shared by every route (each may give its own). */
const COMMON_FIXES: Record<string, string> = { year: 'year: must be a 4-digit year' };

/**
 * Routes that word their 1003 themselves ("invalid get county request" / "FIPS: has invalid format", as
 * the CMS document's examples do: docs/decisions.md#plan-errors) declare `attachValidation: true`: a request
 * their schema refuses reaches the handler, which calls this first. `fixes` gives the `error` text per input
 * name; other inputs get the schema's own words. A key a body object does not allow is named as such
 * (`household.people[0].aptc_eligble: is not a known field`), and a missing one with the key the request
 * sent in its place, when one is spelt nearly alike (docs/decisions.md#household-required).
 */
export function refuseInvalidInput(
  request: FastifyRequest,
  what: string,
  fixes: Record<string, string>,
): void {
  const failure = request.validationError;
  if (!failure) return;
  const first = (failure.validation as SchemaFailure[] | undefined)?.[0];
  const segments = first?.instancePath.split('/').filter(Boolean) ?? [];
  const missing = first?.params?.missingProperty;
  const unknown = first?.params?.additionalProperty;
  const named = missing ?? unknown;
  const name = segments[0] ?? named ?? '';
  const sentInstead =
    missing === undefined ? '' : nearMiss(missing, objectAt(inputOf(request, failure), segments));
  // Inside a body (household.people[2].age), the exact place and what is wrong with it.
  if (segments.length > 0 && (segments.length > 1 || named !== undefined)) {
    const path = [...segments, ...(named === undefined ? [] : [named])]
      .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
      .join('');
    const problem =
      unknown !== undefined
        ? 'is not a known field'
        : missing === undefined
          ? (first?.message ?? 'is invalid')
          : 'is required';
    throw invalidInput(what, `${path}: ${problem}${sentInstead}`);
  }
  const fix =
    fixes[name] ??
    COMMON_FIXES[name] ??
    `${name || failure.validationContext}: ${first?.message ?? 'is invalid'}`;
  throw invalidInput(what, fix + sentInstead);
}

function inputOf(request: FastifyRequest, failure: { validationContext?: string }): unknown {
  switch (failure.validationContext) {
    case 'body':
      return request.body;
    case 'querystring':
      return request.query;
    case 'params':
      return request.params;
    default:
      return undefined;
  }
}

function objectAt(input: unknown, segments: string[]): Record<string, unknown> | undefined {
  let at = input;
  for (const segment of segments) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[segment];
  }
  return at !== null && typeof at === 'object' && !Array.isArray(at)
    ? (at as Record<string, unknown>)
    : undefined;
}

/** ` (the request has aptc_eligble)` when the object holds a key spelt nearly as the missing one. */
function nearMiss(missing: string, object: Record<string, unknown> | undefined): string {
  if (!object) return '';
  const near = Object.keys(object).find((key) => key !== missing && spelledAlike(key, missing));
  return near === undefined ? '' : ` (the request has ${near})`;
}

/**
 * Whether two keys differ only by case and `_`/`-`, or by at most two letters added, dropped, changed or
 * swapped (an optimal string alignment distance of 2 or less; 1 for keys of four letters or fewer).
 */
export function spelledAlike(a: string, b: string): boolean {
  const plain = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const x = plain(a);
  const y = plain(b);
  if (x === y) return true;
  const limit = Math.min(x.length, y.length) <= 4 ? 1 : 2;
  if (Math.abs(x.length - y.length) > limit) return false;
  const rows = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i += 1) {
    for (let j = 1; j <= y.length; j += 1) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[x.length]![y.length]! <= limit;
}
