import { Type, type Static } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { YearQuery } from '../input-schemas.js';
import { answerNotes } from '../quote/data-notes.js';
import { pricedContext } from '../quote/priced-context.js';
import { coverageOf } from '../search/coverage-filter.js';
import { searchAnswerJson } from '../search/search-answer.js';
import { metalStats } from '../search/search-stats.js';
import { matchingRows } from '../search/search.js';
import { dentalFilterNote } from '../search/dental-filter.js';
import { oopcNote } from '../quote/yearly-cost.js';
import { refuseInvalidInput } from './invalid-input.js';
import { DataNotesShape, RateArea, SearchPlan } from './plan-shape.js';
import { HOUSEHOLD_FIXES, PlanSearchRequest, PRICING_RULES } from './priced-requests.js';
import { pricedYear } from './priced-year.js';
import { errorResponses } from './schemas.js';

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

/** Plan search and its per-metal statistics. */
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
          '`catastrophic_override`. With no people in the household the plans are listed unpriced. `year` is ' +
          'required, in the body or as ?year=. `data_notes` (our ' +
          'addition) says once for the answer what the loaded data could not tell: no plan at the place, ' +
          'no premiums (no Rate PUF for the year: ranges null, no tax credit), no benefits (no Benefits ' +
          'PUF for the year), no out-of-pocket estimate (`oopc`). `sort`: premium (after credit), deductible, ' +
          'oopc, total_costs (12 × premium after credit + oopc) or quality_rating; plans without the figure ' +
          "last. `oopc_range: true` (our addition) adds each plan's expected yearly cost over its members' " +
          'spending bands with 10th and 90th percentiles. ' +
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
      const year = await pricedYear(deps, request, body, 'plan search');
      const context = await pricedContext(deps, year, body);
      const coverage = await coverageOf(deps, context, body);
      const rows = matchingRows(context, body, coverage);
      const notes = await answerNotes(
        deps,
        context,
        rows.some((r) => r.premiumWithCredit !== null),
        {
          dental_coverage: dentalFilterNote(context.market.plans, body.filter),
          oopc: oopcNote(
            rows.map((r) => r.oopc),
            context.yearly,
          ),
        },
      );
      const answer = searchAnswerJson(context, body, rows, coverage, notes);
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
          "`oopc`: min, max and mean of the yearly out-of-pocket estimates of the metal level's plans that " +
          'have one (-1 each when none has: no utilization level given, or no cost sharing loaded); ' +
          '`simple_choice` is 0 (no loaded file marks such plans).',
        querystring: YearQuery,
        body: PlanSearchRequest,
        response: { 200: Type.Array(Stat), ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'plan search stats', HOUSEHOLD_FIXES);
      const body = request.body;
      const year = await pricedYear(deps, request, body, 'plan search stats');
      const context = await pricedContext(deps, year, body);
      const rows = matchingRows(context, body, await coverageOf(deps, context, body));
      const notes = await answerNotes(
        deps,
        context,
        rows.some((r) => r.premiumWithCredit !== null),
      );
      return metalStats(rows, notes?.premiums);
    },
  );
}
