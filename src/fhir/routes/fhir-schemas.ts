import { Type, type TSchema } from 'typebox';
import { searchIncludes } from '../include.js';
import { DEFAULT_COUNT, MAX_COUNT } from '../search-params.js';
import type { ResourceType } from '../validate.js';

/**
 * The query parameters of the FHIR routes, for the OpenAPI document (docs/decisions.md#fhir-search). Values
 * are read and refused by search-params.ts, not by these schemas (see routes/fhir.ts).
 */
const text = (description: string) => Type.Optional(Type.String({ description }));

const FORMAT = text(
  '`json`, `application/json` or `application/fhir+json` (FHIR R4 §3.1.0.1.8); any other format is 406.',
);

const DATE_FORMS =
  'A FHIR date of any precision — `2024`, `2024-06`, `2024-06-01`, `2024-06-01T10:00:00Z` (fractions and ' +
  '±hh:mm zones too) — prefixed by `eq` (or nothing), `ne`, `lt`, `le`, `gt`, `ge`, `sa` or `eb`; the ' +
  'value is the range its precision spans (`ge2024` on or after 2024-01-01, `gt2024` after 2024). ' +
  'Repeat the parameter for an interval.';

const COMMON = {
  _count: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_COUNT,
      default: DEFAULT_COUNT,
      description: `Entries per page (alias \`count\`), at most ${MAX_COUNT}.`,
    }),
  ),
  startIndex: Type.Optional(
    Type.Integer({ minimum: 0, default: 0, description: 'The 0-based offset of the page (links carry it).' }),
  ),
  _lastUpdated: text(`When the resource was last updated (an instant). ${DATE_FORMS}`),
  _format: FORMAT,
};

const subject = (name: string, description: string) => ({ [name]: text(description) });

/** FHIR R4 §3.1.1.5.5: the served `_include` values of a type, repeatable, and `_include:iterate`. */
const include = (type: ResourceType) => ({
  _include: Type.Optional(
    Type.Array(Type.String({ enum: searchIncludes(type) }), {
      description:
        "Adds the resources the page's matches refer to (`search.mode` `include`; not counted in `total`, " +
        'not paged; kept in the paging links), each once and only those the token may read by id: the ' +
        'Patient needs Patient scope. `Type:*` includes through every listed parameter; `Type:param:Target` ' +
        'narrows one to a target type. Repeat the parameter for several; a value not listed is ignored.',
    }),
  ),
  '_include:iterate': Type.Optional(
    Type.Array(
      Type.String({ enum: [...searchIncludes('ExplanationOfBenefit'), ...searchIncludes('Coverage')] }),
      {
        description:
          'As `_include`, and followed from the included resources as well, until nothing new comes: ' +
          '`_include=ExplanationOfBenefit:coverage&_include:iterate=Coverage:payor` adds the Coverages and ' +
          'their payors.',
      },
    ),
  ),
});

/** `_id`: the resources' ids, a comma list; repeated, every one applies. */
const ids = (type: ResourceType) => ({
  _id: text(`${type} ids, comma-separated (any of them); repeat the parameter and every one applies.`),
});

/** The header BFD reads for the claim lines' tax numbers; documented on the EOB read and search. */
const TAX_NUMBERS_HEADER = Type.Object({
  IncludeTaxNumbers: Type.Optional(
    Type.String({
      enum: ['true', 'false'],
      description:
        "`true` (any case) keeps the tax numbers of carrier and DME claim lines (BFD's `tax_num` item " +
        'extension); absent or `false` leaves them out. Another value is 400.',
    }),
  ),
});

const SEARCH_QUERIES: Partial<Record<ResourceType, TSchema>> = {
  Patient: Type.Object({
    ...COMMON,
    ...subject('_id', "The token's patient id; another id is 404."),
    identifier: text(
      'Token search on Patient.identifier: `code`, `system|code`, `|code` (no system) or `system|`; a comma ' +
        'separates alternatives, e.g. `http://hl7.org/fhir/sid/us-mbi|1SA0A00AA00`.',
    ),
  }),
  Coverage: Type.Object({
    ...COMMON,
    ...ids('Coverage'),
    ...subject('beneficiary', "`Patient/<id>` or `<id>` of the token's patient; another patient is 403."),
    ...include('Coverage'),
  }),
  ExplanationOfBenefit: Type.Object({
    ...COMMON,
    ...ids('ExplanationOfBenefit'),
    ...subject('patient', "The token's patient id; another patient is 403."),
    identifier: text(
      'Token search on ExplanationOfBenefit.identifier (CARIN BB identifier), exact: `value`, ' +
        '`system|value`, `|value` (no system) or `system|`; a comma separates alternatives, e.g. ' +
        '`https://bluebutton.cms.gov/resources/variables/clm_id|-10000930037921`.',
    ),
    type: text(
      'Claim types, comma-separated, any case: carrier, dme, hha, hospice, inpatient, outpatient, pde, snf ' +
        '(optionally `https://bluebutton.cms.gov/resources/codesystem/eob-type|` before each).',
    ),
    'service-date': text(
      "The claim's through date, as Blue Button filters it: billablePeriod.end, else billablePeriod.start " +
        `(a calendar date). ${DATE_FORMS}`,
    ),
    'service-start-date': text(
      "CARIN BB service-start-date: billablePeriod.start, each line's servicedDate or " +
        `servicedPeriod.start; a claim matches when any of its dates does. ${DATE_FORMS}`,
    ),
    'billable-period-start': text(`CARIN BB billable-period-start: billablePeriod.start. ${DATE_FORMS}`),
    excludeSAMHSA: text(
      '`true` (any case) leaves out the claims that carry a code of substance use disorder treatment ' +
        "(42 CFR Part 2, BFD's rule); any other value filters nothing.",
    ),
    ...include('ExplanationOfBenefit'),
  }),
};

/** The documented query of a type's search; a type without its own filters has the common ones. */
export function searchQuery(type: ResourceType): TSchema {
  return SEARCH_QUERIES[type] ?? Type.Object(COMMON);
}

export const ReadParams = { querystring: Type.Object({ _format: FORMAT }) };

/** The request headers a type's read and search document: `IncludeTaxNumbers` for ExplanationOfBenefit. */
export function requestHeaders(type: string): { headers?: TSchema } {
  return type === 'ExplanationOfBenefit' ? { headers: TAX_NUMBERS_HEADER } : {};
}
