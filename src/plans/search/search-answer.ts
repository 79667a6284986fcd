import type { DataNotes } from '../quote/data-notes.js';
import { rateArea, type PricedContext } from '../quote/priced-context.js';
import { withOopcRange } from '../quote/credit-pricer.js';
import { perObject } from '../../shared/memo.js';
import type { CountyMarket } from '../market/county-market.js';
import type { CoverageFilter } from './coverage-filter.js';
import { searchAnswer, searchPlanJson } from './render.js';
import {
  facetGroups,
  pricedPlanOf,
  ranges,
  showCatastrophic,
  type SearchQuestion,
  type SearchRow,
} from './search.js';
import { sortedPage, type SortKey, type SortOrder } from './sort.js';

/**
 * A plan search's answer as UTF-8 JSON text: the page of plans (render.ts) and the rest of the envelope,
 * written without serialising the plans' unchanging text again: a search costs its pricing, not its JSON.
 */

const DEFAULT_PAGE = 10;

/** What of a search request shapes its answer besides the matching plans. */
export interface AnswerQuestion extends SearchQuestion {
  sort?: SortKey;
  order?: SortOrder;
  offset?: number;
  limit?: number;
  /** Our addition: each plan of the page carries `oopc_range` (docs/decisions.md#oopc-range). */
  oopc_range?: boolean;
}

/** Facet counts per county market and plan selection, as JSON text (bounded: a selection is a filter, not a household). */
const facetCache = perObject<CountyMarket, string, string>(64);

/**
 * `facet_groups` of the result as JSON text. They count plans by metal, type, issuer and design type, so
 * they depend only on which plans match: when no criterion depends on the household's own figures
 * (premium, deductible or out-of-pocket limits), the same selection of one market always gives the same counts, kept
 * per market.
 */
function facetsJson(context: PricedContext, question: AnswerQuestion, rows: SearchRow[]): string {
  const filter = question.filter;
  const householdBound =
    filter?.premium !== undefined ||
    filter?.premium_range !== undefined ||
    filter?.deductible !== undefined ||
    filter?.deductible_range !== undefined ||
    filter?.oopc !== undefined;
  if (householdBound) return JSON.stringify(facetGroups(rows));
  const shown = showCatastrophic(context.household, context.eligibility, question.catastrophic_override);
  const key = `${shown}|${filter ? JSON.stringify(filter) : ''}|${question.suppressed_plan_ids?.join(',') ?? ''}`;
  return facetCache(context.market, key, () => JSON.stringify(facetGroups(rows)));
}

/**
 * The answer after its plans, as JSON text: `total`, `facet_groups` (kept as text), `ranges`, `rate_area`,
 * and `data_notes` when the data could not tell something.
 */
function searchRest(
  context: PricedContext,
  question: AnswerQuestion,
  rows: SearchRow[],
  notes: DataNotes | undefined,
): string {
  const { premiums, deductibles } = ranges(rows);
  return (
    `{"total":${rows.length},"facet_groups":${facetsJson(context, question, rows)}` +
    `,"ranges":{"premiums":{"min":${premiums.min},"max":${premiums.max}}` +
    `,"deductibles":{"min":${deductibles.min},"max":${deductibles.max}}}` +
    `,"rate_area":${JSON.stringify(rateArea(context))}` +
    (notes ? `,"data_notes":${JSON.stringify(notes)}}` : '}')
  );
}

/**
 * The search answer for the matching `rows`: the requested page of plans in the requested order (each with
 * its coverage blocks when the filter asked about drugs or providers), then the envelope over every row.
 */
export function searchAnswerJson(
  context: PricedContext,
  question: AnswerQuestion,
  rows: SearchRow[],
  coverage: CoverageFilter | undefined,
  notes: DataNotes | undefined,
): Buffer {
  const offset = question.offset ?? 0;
  const limit = question.limit ?? DEFAULT_PAGE;
  const page = sortedPage(rows, question.sort, question.order, offset, limit).map((r) => {
    const priced = question.oopc_range ? withOopcRange(pricedPlanOf(r), context.yearly) : pricedPlanOf(r);
    const json = searchPlanJson(priced);
    const extra = coverage?.fields.get(r.plan.id);
    // The premium fields close the plan's object: the coverage blocks go just before its brace.
    return extra ? { ...json, premiums: `${json.premiums.slice(0, -1)}${extra}}` } : json;
  });
  // Already UTF-8 JSON: fastify sends a Buffer as it is (render.ts says how it is assembled).
  return searchAnswer(page, searchRest(context, question, rows, notes));
}
