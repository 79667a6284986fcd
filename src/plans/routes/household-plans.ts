import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { planError } from '../errors.js';
import type { SettledHousehold } from '../household/household.js';
import { YearQuery } from '../input-schemas.js';
import { centsToDollars, dollarsToCents } from '../pricing/money.js';
import { benchmarkPlan, type RankedPlan } from '../quote/benchmark-plan.js';
import { creditWithoutBenchmark, missingRates } from '../quote/data-notes.js';
import { ichraAffordable } from '../quote/ichra.js';
import { enrolling, lowestByPremium, refusedPlans } from '../quote/lowest-cost.js';
import { marketContext, pricedContext, type MarketContext } from '../quote/priced-context.js';
import { REQUIRED_CONTRIBUTION } from '../tables/tax-credit.js';
import { refuseInvalidInput } from './invalid-input.js';
import { EstimateRequest, HOUSEHOLD_FIXES, IchraRequest, LowestCostRequest } from './priced-requests.js';
import { pricedYear } from './priced-year.js';
import { errorResponses } from './schemas.js';

const NO_CSR = 'Exchange variant (no CSR)';

const Eligibility = Type.Object({
  aptc: Type.Union([Type.Number(), Type.Null()], {
    description:
      'monthly advance premium tax credit of the household, $, unrounded; null when it cannot be computed ' +
      '(no rates loaded for the place: no SLCSP benchmark), with `aptc_unavailable` saying why',
  }),
  aptc_unavailable: Type.Optional(
    Type.String({ description: 'our addition: why `aptc` is null; the other fields are still estimated' }),
  ),
  csr: Type.String({ description: 'CSR the person is eligible for, or "Exchange variant (no CSR)"' }),
  is_medicaid_chip: Type.Boolean(),
  in_coverage_gap: Type.Boolean(),
  hardship_exemption: Type.Boolean(),
});

const LowestCostPlan = Type.Object({
  id: Type.String(),
  name: Type.String(),
  premium: Type.Number({
    description:
      'monthly $: /households/slcsp gives the EHB premium (plan search `ehb_premium`), /households/lcsp ' +
      'and /households/lcbp the full premium (plan search `premium`)',
  }),
  metal_level: Type.String(),
});

function needPeople(household: SettledHousehold, what: string): void {
  if (household.members.length === 0) {
    throw planError(1003, 'household.people: at least one person is required', `invalid ${what} request`);
  }
}

/** CMS's 1016, with the reason when it is that no rate at all is loaded for the place (`missingRates`). */
function tooFewPlans(context: MarketContext, what: string, noRates?: string): never {
  throw planError(
    1016,
    `no ${what} plan with rates for the household in county ${context.market.place.countyfips} ` +
      `(rating area ${context.market.ratingArea}) in ${context.year}` +
      (noRates ? `: ${noRates}` : ''),
  );
}

const lowestCostAnswer = (ranked: RankedPlan) => ({
  id: ranked.plan.id,
  name: ranked.plan.name,
  premium: centsToDollars(ranked.amount),
  metal_level: ranked.plan.metalLevel,
});

/** Eligibility estimates, the benchmark plans and ICHRA affordability. */
export function registerHouseholdPlanRoutes(api: App, deps: PlansDeps): void {
  api.post(
    '/households/eligibility/estimates',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: 'One eligibility estimate per person: tax credit, CSR, Medicaid/CHIP, coverage gap',
        description:
          'Index i of `estimates` is `household.people[i]`. Medicaid/CHIP by state, category and age at ' +
          'the Medicaid FPL % (current guidelines; published limits include the 5-point disregard); the ' +
          'credit of the household (SLCSP of the APTC-eligible members minus the expected contribution, ' +
          'guidelines of year − 1) is given, unrounded, to each APTC-eligible person, 0 to the others; ' +
          '`in_coverage_gap` below 100 % FPL in a state that did not expand Medicaid; ' +
          '`hardship_exemption` = in the coverage gap (the affordability exemption is not computed). ' +
          '1015 without Medicaid/CHIP limits for the state and year; 1016 when no silver plan has a rate ' +
          'for the APTC-eligible members. When no plan at the place has any rate (no Rate PUF loaded for ' +
          'the year), the Medicaid/CHIP screen and the CSR level are still given, with `aptc` null and ' +
          '`aptc_unavailable` saying why. `year` is required, in the body or as ?year=; the income must be ' +
          'known (not -1).',
        querystring: YearQuery,
        body: EstimateRequest,
        response: { 200: Type.Object({ estimates: Type.Array(Eligibility) }), ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'eligibility estimates', HOUSEHOLD_FIXES);
      const body = request.body;
      if (body.household.income < 0) {
        throw planError(
          1003,
          'household.income: the yearly household income (0 or more) is required',
          'invalid eligibility estimates request',
        );
      }
      const year = await pricedYear(deps, request, body, 'eligibility estimates');
      const context = await pricedContext(deps, year, body);
      needPeople(context.household, 'eligibility estimates');
      const { eligibility } = context;
      // Without any rate at the place the Medicaid/CHIP screen and the CSR level (which need no premium)
      // are still answered; only the credit is not (no benchmark). A place with rates but no silver plan
      // for the members is CMS's 1016.
      const noRates = missingRates(context.market, await deps.samples.datasets());
      const creditUnknown = creditWithoutBenchmark(eligibility);
      if (creditUnknown && !noRates) tooFewPlans(context, 'silver');
      const unavailable = noRates && `no SLCSP benchmark: ${noRates}`;
      return {
        estimates: eligibility.people.map((person) => ({
          ...(creditUnknown && person.aptcEligible
            ? { aptc: null, aptc_unavailable: unavailable || 'no SLCSP benchmark' }
            : { aptc: person.aptcEligible ? eligibility.aptc.aptcExact / 100 : 0 }),
          csr: person.aptcEligible ? (eligibility.csr ?? NO_CSR) : NO_CSR,
          is_medicaid_chip: person.isMedicaidChip,
          in_coverage_gap: person.inCoverageGap,
          hardship_exemption: person.inCoverageGap,
        })),
      };
    },
  );

  const lowestCost = (
    path: string,
    summary: string,
    description: string,
    pick: (context: MarketContext) => RankedPlan | undefined,
    metal: string,
  ) =>
    api.post(
      path,
      {
        attachValidation: true,
        schema: {
          tags: ['plan-api'],
          summary,
          description: `${description} 1016 when no such plan has rates for the household.`,
          querystring: YearQuery,
          body: LowestCostRequest,
          response: { 200: LowestCostPlan, ...errorResponses },
        },
      },
      async (request) => {
        refuseInvalidInput(request, path.slice(12), HOUSEHOLD_FIXES);
        const body = request.body;
        const context = await marketContext(deps, await pricedYear(deps, request, body), body);
        needPeople(context.household, path.slice(12));
        if (enrolling(context).length === 0) {
          throw planError(
            1003,
            'household.people: everyone has other coverage (has_mec): nobody to price',
            `invalid ${path.slice(12)} request`,
          );
        }
        const ranked = pick(context);
        if (!ranked) {
          const noRates = missingRates(context.market, await deps.samples.datasets());
          const refused = refusedPlans(context, metal === 'silver' ? 'Silver' : 'Bronze', enrolling(context));
          tooFewPlans(
            context,
            metal,
            noRates ??
              (refused > 0
                ? `the issuers' business rules refuse the household on ${refused} ${metal} plan(s) (is_ineligible)`
                : undefined),
          );
        }
        return lowestCostAnswer(ranked);
      },
    );

  lowestCost(
    '/households/slcsp',
    'The second-lowest-cost silver plan (the tax-credit benchmark) for a household',
    '`premium` is the benchmark amount: the EHB portion of the plan’s premium for the people given, ' +
      'tobacco ignored (26 CFR 1.36B-3(f)); equal premiums count once. It is the plan’s `ehb_premium` in ' +
      'plan search (for a household without tobacco users), not its full `premium`.',
    // The coverage family: people with other minimum essential coverage are not in it (36B(c)(2)(B)).
    (c) => benchmarkPlan(c.market.plans, c.year, c.household, enrolling(c)),
    'silver',
  );
  lowestCost(
    '/households/lcsp',
    'The lowest-cost silver plan for a household',
    '`premium` is the plan’s full monthly premium for the people given (tobacco rates for users): the ' +
      'plan’s `premium` in plan search, not its EHB portion (`ehb_premium`, what /households/slcsp gives).',
    (c) => lowestByPremium(c, 'Silver', enrolling(c)),
    'silver',
  );
  lowestCost(
    '/households/lcbp',
    'The lowest-cost bronze plan for a household',
    '`premium` is the plan’s full monthly premium for the people given (tobacco rates for users): the ' +
      'plan’s `premium` in plan search, not its EHB portion (`ehb_premium`, what /households/slcsp gives).',
    (c) => lowestByPremium(c, 'Bronze', enrolling(c)),
    'bronze',
  );

  api.post(
    '/households/ichra',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: 'Whether an individual coverage HRA is affordable, with the lowest-cost silver premium',
        description:
          'The employee is `household.people[0]`. Affordable when the self-only lowest-cost silver ' +
          'premium minus the monthly `hra` is at most the required contribution percentage of the year ' +
          '× income / 12 (26 CFR 1.36B-2(c)(5); 26 U.S.C. 36B(c)(2)(C)). `premium` is that self-only ' +
          'premium. 1016 when no silver plan has a rate for the employee.',
        querystring: YearQuery,
        body: IchraRequest,
        response: {
          200: Type.Object({ affordable: Type.Boolean(), premium: Type.Number() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'ichra', HOUSEHOLD_FIXES);
      const body = request.body;
      const context = await marketContext(deps, await pricedYear(deps, request, body), body);
      needPeople(context.household, 'ichra');
      if (context.household.income === null) {
        throw planError(
          1003,
          'household.income: the yearly household income is required',
          'invalid ichra request',
        );
      }
      const required = REQUIRED_CONTRIBUTION[context.year];
      if (!required) {
        throw planError(
          1003,
          `year: no required contribution percentage is known for ${context.year}`,
          'invalid ichra request',
        );
      }
      const employee = context.household.members.slice(0, 1);
      if (employee[0]!.input.has_mec) {
        throw planError(
          1003,
          'household.people[0]: the employee has other coverage (has_mec): no ICHRA premium to test',
          'invalid ichra request',
        );
      }
      const lcsp = lowestByPremium(context, 'Silver', employee);
      if (!lcsp) tooFewPlans(context, 'silver');
      const income = context.household.income;
      const affordable = ichraAffordable(income, required.pct, lcsp.amount, dollarsToCents(body.hra));
      return { affordable, premium: centsToDollars(lcsp.amount) };
    },
  );
}
