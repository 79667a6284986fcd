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
 * Routes that word their 1003 themselves ("invalid get county request" / "FIPS: has invalid format", research
 * §1.10) declare `attachValidation: true`: a request their schema refuses reaches the handler, which calls
 * this first. `fixes` gives the `error` text per input name; other inputs get the schema's own words.
 */
export function refuseInvalidInput(
  request: FastifyRequest,
  what: string,
  fixes: Record<string, string>,
): void {
  const failure = request.validationError;
  if (!failure) return;
  const first = (failure.validation as SchemaFailure[] | undefined)?.[0];
  const name = first?.params?.missingProperty ?? first?.instancePath.split('/').filter(Boolean)[0] ?? '';
  const fix =
    fixes[name] ??
    COMMON_FIXES[name] ??
    `${name || failure.validationContext}: ${first?.message ?? 'is invalid'}`;
  throw invalidInput(what, fix);
}
