import { Type, type Static } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { planError } from '../errors.js';
import type { CsrOverride } from '../eligibility/csr.js';
import type { CountyMarket } from '../market/county-market.js';
import { centsToDollars } from '../pricing/money.js';
import { perObject, perObjectAsync } from '../../shared/memo.js';
import { coverageFilter, type CoverageFilter, type UnknownIds } from '../search/coverage-filter.js';
import { CreditPricer, priceAll, termsOfAll, type PricedPlan } from '../search/pricing.js';
import { premiumFields, searchAnswer, searchPlanJson } from '../search/render.js';
import {
  candidateTest,
  facetGroups,
  pricedPlanOf,
  ranges,
  searchRows,
  showCatastrophic,
  sortedPage,
  type SearchRow,
} from '../search/search.js';
import {
  HOUSEHOLD_FIXES,
  PlanRequest,
  PlanSearchRequest,
  PlansRequest,
  type PlanSearchInput,
} from './household-input.js';
import { PlanId, YearQuery } from './input-schemas.js';
import { refuseInvalidInput } from './invalid-input.js';
import { PricedPlan as PricedPlanShape, RateArea, SearchPlan } from './plan-shape.js';
import { DataNotesShape, answerNotes, type DataNotes } from './data-notes.js';

import { pricedContext, type PricedContext } from './priced.js';
import { errorResponses } from './schemas.js';
import { coverageVersion } from './coverage-version.js';

const DEFAULT_PAGE = 10;

const PRICING_RULES =
  'Premiums: the Rate PUF row of each member for the plan, rating area and age band (tobacco rate for ' +
  "users within the plan's look-back), only the three oldest children under 21 rated, NY/VT family " +
  'tiers; for 2014–2017 QHP Landscape plans the age-21 premium × the federal age curve (derived, ' +
  '`rate_source: landscape`). A plan with no rate for the household has null premiums and ' +
  '`premium_unavailable` saying why. The credit: SLCSP (EHB premium of the APTC-eligible members, tobacco ' +
  'ignored) minus the expected contribution, applied as min(credit, aptc_eligible_premium); ' +
  '`premium_w_credit` is never negative. 1015 without Medicaid/CHIP limits for the state and year, 1017 ' +
  'without a rating area, 1003 for a state that runs its own exchange.';

const Range = (what: string) =>
  Type.Object(
    { min: Type.Union([Type.Number(), Type.Null()]), max: Type.Union([Type.Number(), Type.Null()]) },
    { description: `${what}; min and max are null when no plan of the result has one` },
  );

const SearchResponse = Type.Object({
  plans: Type.Array(SearchPlan),
  total: Type.Integer({ description: 'plans matching, before paging' }),
  facet_groups: Type.Array(
    Type.Object({
      name: Type.String(),
      facets: Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() })),
    }),
  ),
  ranges: Type.Object({
    premiums: Range('monthly premium after credit (`premium_w_credit`), $'),
    deductibles: Range('individual in-network deductible of the variant shown, $'),
  }),
  rate_area: RateArea,
  data_notes: Type.Optional(DataNotesShape),
});

const Stat = Type.Object({
  metal_level: Type.String(),
  total: Type.Integer(),
  simple_choice: Type.Integer(),
  premiums: Type.Object(
    {
      min: Type.Union([Type.Number(), Type.Null()]),
      max: Type.Union([Type.Number(), Type.Null()]),
      mean: Type.Union([Type.Number(), Type.Null()]),
    },
    { description: 'after credit, $; null when no plan of the metal has a premium for the household' },
  ),
  premium_unavailable: Type.Optional(
    Type.String({ description: 'our addition: why `premiums` is null (e.g. no Rate PUF loaded)' }),
  ),
  oopc: Type.Object({ min: Type.Number(), max: Type.Number(), mean: Type.Number() }),
  quality_ratings: Type.Object({
    five_star_rating: Type.Integer(),
    four_star_rating: Type.Integer(),
    three_star_rating: Type.Integer(),
    two_star_rating: Type.Integer(),
    one_star_rating: Type.Integer(),
  }),
});

/** The matching plans of a search, priced, in market order (sorting and paging are the caller's). */
function matchingRows(context: PricedContext, body: PlanSearchInput, coverage?: CoverageFilter): SearchRow[] {
  const { market, household, eligibility, year } = context;
  const shown = showCatastrophic(household, eligibility, body.catastrophic_override);
  const pricer = new CreditPricer(year, household, eligibility, body.csr_override as CsrOverride | undefined);
  return searchRows(
    termsOfAll(market.plans, household.effectiveDate, year),
    pricer,
    candidateTest(body.filter, shown, body.suppressed_plan_ids, coverage?.keep),
    body.filter,
  );
}

/** Coverage answers per county market and question (bounded: a question is a list of ids, not a household). */
const coverageCache = perObjectAsync<CountyMarket, string, CoverageFilter | UnknownIds | undefined>(256);

/** The coverage of `filter.drugs` / `filter.providers` by the market's plans; 1014 / 1013 for unknown ids. */
async function coverageOf(
  deps: PlansDeps,
  context: PricedContext,
  body: { filter?: { drugs?: string[]; providers?: string[] } },
): Promise<CoverageFilter | undefined> {
  const drugs = [...new Set(body.filter?.drugs ?? [])].sort();
  const providers = [...new Set(body.filter?.providers ?? [])].sort();
  if (drugs.length === 0 && providers.length === 0) return undefined;
  // The same question of the same market is answered once while the data it comes from stays.
  const version = await coverageVersion(deps);
  const found = await coverageCache(context.market, `${context.year}|${version}|${drugs}|${providers}`, () =>
    coverageFilter(
      deps,
      context.year,
      { drugs, providers },
      context.market.plans.map((p) => p.id),
      version,
    ),
  );
  if (found && 'unknown' in found) {
    const ids = found.ids.join(', ');
    throw found.unknown === 'drugs'
      ? planError(1014, `no drug with RxCUI ${ids} (RxNorm or ${context.year} formularies)`)
      : planError(1013, `no provider with NPI ${ids} (directory or ${context.year} networks)`);
  }
  return found;
}

/** Facet counts per county market and plan selection, as JSON text (bounded: a selection is a filter, not a household). */
const facetCache = perObject<CountyMarket, string, string>(64);

/**
 * `facet_groups` of the result as JSON text. They count plans by metal, type, issuer and design type, so
 * they depend only on which plans match: when no criterion depends on the household's own figures
 * (premium or deductible limits), the same selection of one market always gives the same counts, kept
 * per market.
 */
function facetsJson(context: PricedContext, body: PlanSearchInput, rows: SearchRow[]): string {
  const filter = body.filter;
  const householdBound =
    filter?.premium !== undefined ||
    filter?.premium_range !== undefined ||
    filter?.deductible !== undefined ||
    filter?.deductible_range !== undefined;
  if (householdBound) return JSON.stringify(facetGroups(rows));
  const shown = showCatastrophic(context.household, context.eligibility, body.catastrophic_override);
  const key = `${shown}|${filter ? JSON.stringify(filter) : ''}|${body.suppressed_plan_ids?.join(',') ?? ''}`;
  return facetCache(context.market, key, () => JSON.stringify(facetGroups(rows)));
}

/**
 * The answer after its plans, as JSON text: `total`, `facet_groups` (kept as text), `ranges`, `rate_area`,
 * and `data_notes` when the data could not tell something.
 */
function searchRest(
  context: PricedContext,
  body: PlanSearchInput,
  rows: SearchRow[],
  notes: DataNotes | undefined,
): string {
  const { premiums, deductibles } = ranges(rows);
  return (
    `{"total":${rows.length},"facet_groups":${facetsJson(context, body, rows)}` +
    `,"ranges":{"premiums":{"min":${premiums.min},"max":${premiums.max}}` +
    `,"deductibles":{"min":${deductibles.min},"max":${deductibles.max}}}` +
    `,"rate_area":${JSON.stringify(rateArea(context))}` +
    (notes ? `,"data_notes":${JSON.stringify(notes)}}` : '}')
  );
}

function pricedPlanObject(priced: PricedPlan) {
  return { ...priced.plan.details, ...premiumFields(priced) };
}

const rateArea = (context: PricedContext) => ({
  state: context.market.place.state,
  area: context.market.ratingArea,
});

/** Plan search and the priced plan endpoints. */
export function registerPlanSearchRoutes(api: App, deps: PlansDeps): void {
  api.post(
    '/plans/search',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: 'Plans sold at a place, priced for a household, with its tax credit',
        description:
          '`total`, `facet_groups` and `ranges` (premiums after credit, individual deductibles) are over ' +
          'every matching plan; `offset` and `limit` (1–100, 10 by default) page them. Each plan shows the ' +
          'CSR variant the household sees, the top benefits and in-network deductibles and MOOPs. ' +
          'Catastrophic plans are shown when every member is under 30 or in the coverage gap, or by ' +
          '`catastrophic_override`. Without a household the plans are listed unpriced. `data_notes` (our ' +
          'addition) says once for the answer what the loaded data could not tell: no plan at the place, ' +
          'no premiums (no Rate PUF for the year: ranges null, no tax credit), no benefits (no Benefits ' +
          'PUF for the year). ' +
          PRICING_RULES,
        querystring: YearQuery,
        body: PlanSearchRequest,
        response: { 200: SearchResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const started = performance.now();
      refuseInvalidInput(request, 'plan search', HOUSEHOLD_FIXES);
      const body = request.body;
      const context = await pricedContext(deps, request, body);
      const coverage = await coverageOf(deps, context, body);
      const rows = matchingRows(context, body, coverage);
      const offset = body.offset ?? 0;
      const limit = body.limit ?? DEFAULT_PAGE;
      const page = sortedPage(rows, body.sort, body.order, offset, limit).map((r) => {
        const json = searchPlanJson(pricedPlanOf(r));
        const extra = coverage?.fields.get(r.plan.id);
        // The premium fields close the plan's object: the coverage blocks go just before its brace.
        return extra ? { ...json, premiums: `${json.premiums.slice(0, -1)}${extra}}` } : json;
      });
      const notes = await answerNotes(
        deps,
        context,
        rows.some((r) => r.premiumWithCredit !== null),
      );
      const rest = searchRest(context, body, rows, notes);
      // Already UTF-8 JSON: fastify sends a Buffer as it is (render.ts says how it is assembled).
      const answer = searchAnswer(page, rest);
      // The search's own time, from the validated request to the answer's bytes (the app's total follows).
      void reply.header('server-timing', `search;dur=${(performance.now() - started).toFixed(3)}`);
      return reply
        .type('application/json; charset=utf-8')
        .send(answer as unknown as Static<typeof SearchResponse>);
    },
  );

  api.post(
    '/plans/search/stats',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: 'Per metal level: how many plans match a search, premium range and mean, quality ratings',
        description:
          'The same request as POST /plans/search; one entry per metal level of the matching plans. ' +
          '`premiums` are after credit over the plans with a premium for the household (null when none, ' +
          'with `premium_unavailable` saying why); ' +
          '`oopc` is not computed (-1); `simple_choice` is 0 (no loaded file marks such plans).',
        querystring: YearQuery,
        body: PlanSearchRequest,
        response: { 200: Type.Array(Stat), ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'plan search stats', HOUSEHOLD_FIXES);
      const context = await pricedContext(deps, request, request.body);
      const rows = matchingRows(context, request.body, await coverageOf(deps, context, request.body));
      const byMetal = new Map<string, SearchRow[]>();
      for (const row of rows) {
        const metal = row.plan.metalLevel;
        byMetal.set(metal, [...(byMetal.get(metal) ?? []), row]);
      }
      const stars = (list: SearchRow[], n: number) => list.filter((r) => r.plan.qualityRating === n).length;
      const unavailable = (
        await answerNotes(
          deps,
          context,
          rows.some((r) => r.premiumWithCredit !== null),
        )
      )?.premiums;
      return [...byMetal].map(([metal, list]) => {
        const premiums = list.flatMap((r) =>
          r.premiumWithCredit === null ? [] : [pricedPlanOf(r).premiumWithCredit],
        );
        const sum = premiums.reduce((a, b) => a + b, 0);
        return {
          metal_level: metal,
          total: list.length,
          simple_choice: 0,
          premiums:
            premiums.length === 0
              ? { min: null, max: null, mean: null }
              : {
                  min: centsToDollars(Math.min(...premiums)),
                  max: centsToDollars(Math.max(...premiums)),
                  mean: centsToDollars(Math.round(sum / premiums.length)),
                },
          ...(premiums.length === 0
            ? {
                premium_unavailable:
                  unavailable ?? 'no plan of this metal level has a premium for the household',
              }
            : {}),
          oopc: { min: -1, max: -1, mean: -1 },
          quality_ratings: {
            five_star_rating: stars(list, 5),
            four_star_rating: stars(list, 4),
            three_star_rating: stars(list, 3),
            two_star_rating: stars(list, 2),
            one_star_rating: stars(list, 1),
          },
        };
      });
    },
  );

  api.post(
    '/plans',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: 'Several plans in full, priced for a household (plan comparison)',
        description:
          'Every plan of `plan_ids` sold at the place, in the order given, with all CSR variants and ' +
          'benefits and the household premium fields; ids not sold there are left out, and 1006 when none ' +
          'is. With `filter.drugs` / `filter.providers` each plan carries `drug_coverage` / ' +
          '`provider_coverage`. ' +
          PRICING_RULES,
        querystring: YearQuery,
        body: PlansRequest,
        response: {
          200: Type.Object({ plans: Type.Array(PricedPlanShape), data_notes: Type.Optional(DataNotesShape) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'plans', HOUSEHOLD_FIXES);
      const body = request.body;
      const context = await pricedContext(deps, request, body);
      const byId = new Map(context.market.plans.map((p) => [p.id, p]));
      const chosen = [...new Set(body.plan_ids)].flatMap((id) => {
        const plan = byId.get(id);
        return plan ? [plan] : [];
      });
      if (chosen.length === 0) {
        throw planError(
          1006,
          `none of the plans is sold in county ${body.place.countyfips} (ZIP ${body.place.zipcode}) in ${context.year}`,
        );
      }
      const priced = priceAll(
        chosen,
        context.year,
        context.household,
        context.eligibility,
        body.csr_override as CsrOverride | undefined,
      );
      const coverage = await coverageOf(deps, context, body);
      const notes = await answerNotes(
        deps,
        context,
        priced.some((p) => p.premium.available),
      );
      return {
        plans: priced.map((p) => ({ ...pricedPlanObject(p), ...coverage?.blocks.get(p.plan.id) })),
        ...(notes ? { data_notes: notes } : {}),
      };
    },
  );

  api.post(
    '/plans/:plan_id',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: "One plan's details priced for a household, with the place's rating area",
        description:
          'As GET /plans/{plan_id} with the premium fields; `current_enrollment` rates its plan with the ' +
          'tobacco status the person enrolled with. 1006 when the plan is not sold at the place. With ' +
          '`filter.drugs` / `filter.providers` the plan carries `drug_coverage` / `provider_coverage`. ' +
          PRICING_RULES,
        params: Type.Object({ plan_id: PlanId }),
        querystring: YearQuery,
        body: PlanRequest,
        response: {
          200: Type.Object({
            plan: PricedPlanShape,
            rate_area: RateArea,
            data_notes: Type.Optional(DataNotesShape),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'plan', {
        ...HOUSEHOLD_FIXES,
        plan_id: 'plan_id: must be a 14-character HIOS plan ID (5 digits, state, 7 digits)',
      });
      const body = request.body as Static<typeof PlanRequest>;
      const context = await pricedContext(deps, request, body);
      const plan = context.market.plans.find((p) => p.id === request.params.plan_id);
      if (!plan) {
        throw planError(
          1006,
          `plan ${request.params.plan_id} is not sold in county ${body.place.countyfips} (ZIP ${body.place.zipcode}) in ${context.year}`,
        );
      }
      const [priced] = priceAll(
        [plan],
        context.year,
        context.household,
        context.eligibility,
        body.csr_override as CsrOverride | undefined,
      );
      const coverage = await coverageOf(deps, context, body);
      const notes = await answerNotes(deps, context, priced!.premium.available);
      return {
        plan: { ...pricedPlanObject(priced!), ...coverage?.blocks.get(plan.id) },
        rate_area: rateArea(context),
        ...(notes ? { data_notes: notes } : {}),
      };
    },
  );
}
