import { Type } from 'typebox';
import { StateMedicaid } from './shapes.js';

// The bulk documents' shapes (CMS Marketplace API document, "Bulk Data" definitions), for the OpenAPI
// document: the answers are stored JSON streamed as they are, so these describe and do not serialize.

const CountyZips = Type.Object({
  name: Type.String({ description: 'Census county name ("" when the county list lacks the county)' }),
  fips: Type.String({ description: '5-digit county FIPS code' }),
  zips: Type.Array(Type.String(), {
    description: "ZIP codes with addresses in the county (HUD's crosswalk)",
  }),
});

const Range = Type.Object({
  min: Type.Number(),
  max: Type.Optional(Type.Number({ description: 'absent: no upper limit' })),
});

const Code = Type.Object({ code: Type.Integer(), description: Type.String() });

const AgeBands = Type.Record(Type.String(), Type.String(), {
  description: 'age band upper bounds ("6", "18", "26", "35", "45", "55", "999") → "Decile 1".."Decile 10"',
});
const ByGender = Type.Object({ male: AgeBands, femaile: AgeBands });

/** The 200 answer of each `/data/<name>`. */
export const BULK_SHAPES = {
  apt: Type.Object({
    market_year: Type.Integer(),
    tiers: Type.Array(
      Type.Object({
        pctFPL: Range,
        pctPremium: Range,
      }),
      { description: 'income bands in % of FPL; the applicable percentage of income, initial to final' },
    ),
  }),
  'decile-mapping': Type.Object(
    { low: ByGender, medium: ByGender, high: ByGender },
    { description: '`femaile` as the CMS document spells it' },
  ),
  'state-medicaid': Type.Array(
    Type.Object({
      fiscal_year: Type.Integer(),
      fiscal_quarter: Type.Integer(),
      states: Type.Array(StateMedicaid),
    }),
  ),
  'rate-areas': Type.Array(
    Type.Object({
      state: Type.String(),
      rateAreas: Type.Array(Type.Object({ rateArea: Type.Integer(), counties: Type.Array(CountyZips) })),
    }),
  ),
  'county-zips': Type.Array(Type.Object({ state: Type.String(), counties: Type.Array(CountyZips) })),
  crosswalk: Type.Object({
    levels: Type.Array(Code),
    reasons: Type.Array(Code),
    data: Type.Array(
      Type.Object({
        state: Type.String(),
        previous_plan_id: Type.String(),
        new_plan_id: Type.String({ description: '"" when the plan has no successor (levels 4, 5)' }),
        fips: Type.String(),
        level: Type.Integer(),
        reason: Type.Integer(),
        zipcodes: Type.Array(Type.String(), { description: '"00000": the whole county' }),
      }),
    ),
  }),
} as const;

/** A bulk document that has no data for the year. */
export const BulkNotFound = Type.Object({
  status: Type.String(),
  message: Type.String(),
  error: Type.String({ description: 'what is missing, and which ingest kind loads it' }),
});
