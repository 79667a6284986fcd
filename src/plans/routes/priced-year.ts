import type { FastifyRequest } from 'fastify';
import type { PlansDeps } from '../deps.js';
import { usesData } from '../gateway/sample-data.js';
import { MARKET_KINDS } from '../market/market-service.js';
import { yearOrCurrent } from './market-year.js';

/** Datasets a priced answer is built from (for the sample label). */
export const PRICED_KINDS = [...MARKET_KINDS, 'medicaid'];

/**
 * The year a priced request is about: the body's, else `?year=`, else the current market year. The answer,
 * refusal or not, is labelled by the datasets of that year (quote/priced-context.ts checks it next).
 */
export async function pricedYear(
  deps: PlansDeps,
  request: FastifyRequest,
  body: { year?: number },
): Promise<number> {
  const queryYear = (request.query as { year?: number } | undefined)?.year;
  const year = await yearOrCurrent(deps, body.year ?? queryYear);
  usesData(request, PRICED_KINDS, year);
  return year;
}
