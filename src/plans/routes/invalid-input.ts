import type { FastifyRequest } from 'fastify';
import { invalidInput } from '../errors.js';

interface SchemaFailure {
  instancePath: string;
  message?: string;
  params?: { missingProperty?: string };
}

/** Wording shared by every route (each may give its own). */
const COMMON_FIXES: Record<string, string> = { year: 'year: must be a 4-digit year' };

/**
 * Routes that word their 1003 themselves ("invalid get county request" / "FIPS: has invalid format", as
 * the CMS document's examples do: docs/decisions.md#plan-errors) declare `attachValidation: true`: a request
 * their schema refuses reaches the handler, which calls this first. `fixes` gives the `error` text per input
 * name; other inputs get the schema's own words.
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
  const name = segments[0] ?? missing ?? '';
  // Inside a body (household.people[2].age), the exact place and what is wrong with it.
  if (segments.length > 0 && (segments.length > 1 || missing !== undefined)) {
    const path = [...segments, ...(missing === undefined ? [] : [missing])]
      .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
      .join('');
    const problem = missing === undefined ? (first?.message ?? 'is invalid') : 'is required';
    throw invalidInput(what, `${path}: ${problem}`);
  }
  const fix =
    fixes[name] ??
    COMMON_FIXES[name] ??
    `${name || failure.validationContext}: ${first?.message ?? 'is invalid'}`;
  throw invalidInput(what, fix);
}
