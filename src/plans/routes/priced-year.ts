import type { FastifyRequest } from 'fastify';
import type { PlansDeps } from '../deps.js';
import { invalidInput } from '../errors.js';
import { usesData } from '../gateway/sample-data.js';
import { MARKET_KINDS } from '../market/market-service.js';
import { yearOrCurrent } from './market-year.js';

/** Datasets a priced answer is built from (for the sample label). */
export const PRICED_KINDS = [...MARKET_KINDS, 'medicaid'];

/**
 * The year a priced request is about: the body's, else `?year=`, else the current market year. The answer,
 * refusal or not, is labelled by the datasets of that year (quote/priced-context.ts checks it next).
 * `mustName`, the request's name in a 1003, is given where the request must name its year, in the body or
 * the query (plan search, its stats, eligibility estimates: docs/decisions.md#household-required).
 */
export async function pricedYear(
  deps: PlansDeps,
  request: FastifyRequest,
  body: { year?: number },
  mustName?: string,
): Promise<number> {
  const queryYear = (request.query as { year?: number } | undefined)?.year;
  const named = body.year ?? queryYear;
  if (named === undefined && mustName !== undefined) {
    throw invalidInput(mustName, 'year: the market year (4 digits) is required, in the body or as ?year=');
  }
  const year = await yearOrCurrent(deps, named);
  usesData(request, PRICED_KINDS, year);
  return year;
}
