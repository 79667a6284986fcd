import { Type, type Static } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { planError } from '../errors.js';
import { usesData } from '../gateway/sample-data.js';
import { PLAN_KINDS } from '../tables/plan-kinds.js';
import { marketplaceModel, type Marketplaces } from '../store/marketplace.js';
import { guidelineYearOf, povertyRegion, povertyTable } from '../tables/poverty-guidelines.js';
import { findState, HEALTHCARE_GOV, STATES, type StateFacts } from '../tables/states.js';
import { refuseInvalidInput } from './invalid-input.js';
import { YearQuery } from '../input-schemas.js';
import { yearOrCurrent } from './market-year.js';
import { MARKETPLACE_RULE, marketplacesOf } from '../market/marketplace.js';
import { errorResponses } from './schemas.js';
import { PovertyGuideline, State, StateMedicaid } from './shapes.js';
import { toStateMedicaid } from '../eligibility/state-medicaid.js';

const tags = ['plan-api'];

/**
 * A state with its exchange: FFM when it uses HealthCare.gov in the year, SBM when the year's list is
 * known and it is not on it, no model at all when we cannot tell (see `MARKETPLACE_RULE`). Only
 * HealthCare.gov's own addresses are named; a state exchange's site and the IRS form links are not in our
 * data and stay empty.
 */
function toState(state: StateFacts, known: Marketplaces): Static<typeof State> {
  const model = marketplaceModel(known, state.abbrev);
  const ffm = model === 'FFM';
  return {
    abbrev: state.abbrev,
    fips: state.fips,
    name: state.name,
    ...(model ? { marketplace_model: model, shop_marketplace_model: model } : {}),
    hix_name: ffm ? HEALTHCARE_GOV.name : '',
    hix_url: ffm ? HEALTHCARE_GOV.url : '',
    shop_hix_name: ffm ? HEALTHCARE_GOV.name : '',
    shop_hix_url: ffm ? HEALTHCARE_GOV.shopUrl : '',
    '8962_link': '',
    '8965_link': '',
    assister_program_url: ffm ? HEALTHCARE_GOV.localHelpUrl : '',
  };
}

function stateOrFail(abbrev: string): StateFacts {
  const state = findState(abbrev);
  if (!state) throw planError(1002, `no state ${abbrev}`);
  return state;
}

/** States, their marketplace, Medicaid/CHIP limits and poverty guidelines. */
export function registerStateRoutes(api: App, deps: PlansDeps): void {
  const modelNote =
    'marketplace_model / shop_marketplace_model for `year` (default: the current market year): FFM when ' +
    'the state uses HealthCare.gov, SBM when it runs its own exchange, absent when we cannot tell. ' +
    MARKETPLACE_RULE;

  api.get(
    '/states',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'The 50 states and DC, with their marketplace model',
        description: modelNote,
        querystring: YearQuery,
        response: { 200: Type.Object({ states: Type.Array(State) }), ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'states', {});
      const year = await yearOrCurrent(deps, request.query.year);
      usesData(request, PLAN_KINDS, year);
      const known = await marketplacesOf(deps, year);
      return { states: STATES.map((s) => toState(s, known)) };
    },
  );

  api.get(
    '/states/:abbrev',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'A state by its USPS abbreviation',
        description: `${modelNote} 1002 for an abbreviation that is not a state or DC.`,
        params: Type.Object({
          abbrev: Type.String({ description: '2-letter USPS abbreviation, upper case' }),
        }),
        querystring: YearQuery,
        response: { 200: State, ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'get state', {});
      const state = stateOrFail(request.params.abbrev);
      const year = await yearOrCurrent(deps, request.query.year);
      usesData(request, PLAN_KINDS, year);
      return toState(state, await marketplacesOf(deps, year));
    },
  );

  api.get(
    '/states/:abbrev/medicaid',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: "A state's Medicaid and CHIP income limits",
        description:
          'Limits as fractions of FPL (1.38 = 138%), as published: the 5-point MAGI disregard included. ' +
          '`year` is the fiscal year of the limits, as of January 1 (default: the current market year: ' +
          'Medicaid uses the limits in force when coverage starts); `quarter` defaults to the latest ' +
          'loaded for the year. 0 = the group is not covered; a field is absent when the source has no ' +
          'figure for it. 1008 when nothing is loaded for the state, year and quarter.',
        params: Type.Object({ abbrev: Type.String() }),
        querystring: Type.Object({
          year: YearQuery.properties.year,
          quarter: Type.Optional(Type.Integer({ minimum: 1, maximum: 4, description: 'fiscal quarter 1–4' })),
        }),
        response: { 200: StateMedicaid, ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'state medicaid', {
        quarter: 'quarter: must be 1, 2, 3 or 4',
      });
      const state = stateOrFail(request.params.abbrev);
      const year = await yearOrCurrent(deps, request.query.year);
      const { quarter } = request.query;
      usesData(request, ['medicaid'], year);
      const found = await deps.medicaid.findMedicaidLimits(state.abbrev, year, quarter);
      if (!found) {
        const when = quarter === undefined ? `year ${year}` : `year ${year}, quarter ${quarter}`;
        throw planError(1008, `no Medicaid data for ${state.abbrev}, ${when}`);
      }
      return toStateMedicaid(state, found);
    },
  );

  api.get(
    '/states/:abbrev/poverty-guidelines',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Federal poverty guidelines used for a market year in a state',
        description:
          '`year` is the market year; the answer is the HHS poverty guidelines published in year − 1, the ' +
          'ones in effect when open enrollment for that year starts and the ones the premium tax credit ' +
          'uses (26 CFR 1.36B-1(h)): year=2026 gives the 2025 guidelines. Regions: the 48 states and DC, ' +
          'Alaska, Hawaii. `year` defaults to the current market year. 1009 when we hold no guidelines ' +
          'for the year (guidelines 2013–2026).',
        params: Type.Object({ abbrev: Type.String() }),
        querystring: YearQuery,
        response: { 200: PovertyGuideline, ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'poverty guideline', { year: 'year: must be a 4-digit market year' });
      const state = stateOrFail(request.params.abbrev);
      const year = await yearOrCurrent(deps, request.query.year);
      usesData(request, []);
      const table = povertyTable(guidelineYearOf(year), povertyRegion(state.abbrev));
      if (!table) throw planError(1009, `no poverty guidelines for market year ${year}`);
      return {
        add_per_person_after_eight: table.addPerPersonAfterEight,
        guidelines: table.sizes.map((guideline, i) => ({ household_size: i + 1, guideline })),
      };
    },
  );
}
