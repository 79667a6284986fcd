import { detailError } from '../shared/detail-error.js';
import type { ColumnInterval } from './store/resources.js';
import {
  dayInterval,
  dayRangeMatch,
  instantInterval,
  parseDateSearch,
  type DateSearch,
  type DayRangeMatch,
} from './date-search.js';
import { parseIncludes, type Include, type IterateInclude } from './include.js';
import { parseTokenAlternatives, type TokenValue } from './token-search.js';
import {
  BILLABLE_PERIOD_START,
  EOB_IDENTIFIER,
  EOB_TYPE_SYSTEM,
  EOB_TYPES,
  SERVICE_START_DATE,
  type ResourceType,
} from './validate.js';

/** `_count` 0–50, 10 by default; `startIndex` is a 0-based offset (docs/decisions.md#fhir-search). */
export const DEFAULT_COUNT = 10;
export const MAX_COUNT = 50;

/**
 * Where a page starts, as our paging links carry it in the `cursor` parameter (docs/decisions.md#fhir-paging):
 * the matches after `id` in id order (from the first one without an id), or those before it (up to the last
 * one without an id); `total` is the count made when the search began, carried from page to page.
 */
export interface PageCursor {
  direction: 'after' | 'before';
  total: number;
  id?: string;
}

/** `after.<total>[.<id>]` or `before.<total>[.<id>]`; an id is a FHIR id (FHIR R4 datatypes.html#id). */
const CURSOR = /^(after|before)\.(\d{1,15})(?:\.([A-Za-z0-9\-.]{1,64}))?$/;

export function formatCursor({ direction, total, id }: PageCursor): string {
  return id === undefined ? `${direction}.${total}` : `${direction}.${total}.${id}`;
}

/** A link's `cursor`, as `formatCursor` wrote it; anything else is 400 (a client does not make them). */
function cursor(query: Query): PageCursor | undefined {
  const raw = all(query, 'cursor')[0];
  if (raw === undefined) return undefined;
  const match = CURSOR.exec(raw);
  if (!match) throw detailError(400, 'the cursor parameter value is not valid');
  return {
    direction: match[1] as PageCursor['direction'],
    total: Number(match[2]),
    ...(match[3] === undefined ? {} : { id: match[3] }),
  };
}

export interface SearchParams {
  count: number;
  startIndex: number;
  /** The position our paging links carry; `startIndex` alone is an offset (docs/decisions.md#fhir-paging). */
  cursor: PageCursor | undefined;
  /** Epoch-ms intervals of `last_updated`, one per `_lastUpdated` value (all apply). */
  lastUpdated: ColumnInterval<number>[];
  /** `YYYY-MM-DD` intervals of `service_date`, one per `service-date` value (all apply). */
  serviceDate: ColumnInterval<string>[];
  eobTypes: string[] | undefined;
  /** Patient `identifier`: each parameter's alternatives (all parameters apply); undefined when absent. */
  identifiers: TokenValue[][] | undefined;
  /** EOB and Coverage `_id`: each parameter's comma-separated ids (all parameters apply). */
  ids: string[][];
  /** EOB `identifier`, filtered in SQL: each parameter's alternatives (all parameters apply). */
  tokens: { param: string; alternatives: TokenValue[] }[];
  /** EOB `service-start-date` and `billable-period-start`, one per value (all apply). */
  dates: { param: string; match: DayRangeMatch }[];
  /** EOB `excludeSAMHSA=true` (any case): leave out the claims marked sensitive. */
  excludeSamhsa: boolean;
  /** Patient `_id`, Coverage `beneficiary`, EOB `patient`: who the client says it is asking about. */
  subject: string | undefined;
  /** The served `_include` values (include.ts); the others are ignored. */
  includes: Include[];
  /** The served `_include:iterate` values (include.ts); the others are ignored. */
  iterate: IterateInclude[];
  /** The parameters echoed in paging links (filters only; paging is added per link). */
  echo: [string, string][];
}

type Query = Record<string, string | string[] | undefined>;

function all(query: Query, name: string): string[] {
  const value = query[name];
  return value === undefined ? [] : [value].flat();
}

/**
 * A voluptuous error as `str(Invalid)` prints it: Blue Button's message (docs/decisions.md#fhir-search,
 * e.g. `value must be at most 50`), then where in the validated dict it failed, e.g.
 * `for dictionary value @ data['_count']`, so the client learns which parameter to fix.
 */
export function voluptuousText(message: string, parameter: string): string {
  return `${message} for dictionary value @ data['${parameter}']`;
}

function integer(query: Query, names: string[], fallback: number, min: number, max: number): number {
  const name = names.find((n) => all(query, n).length > 0);
  if (name === undefined) return fallback;
  const raw = all(query, name)[0]!;
  if (!/^\d+$/.test(raw)) throw detailError(400, `${names[0]} must be a whole number`);
  const value = Number(raw);
  if (value < min) throw detailError(400, voluptuousText(`value must be at least ${min}`, name));
  if (value > max) throw detailError(400, voluptuousText(`value must be at most ${max}`, name));
  return value;
}

/**
 * A date parameter's values through the one FHIR date parser (date-search.ts), refused in Blue Button's
 * words for an unknown prefix and in the same form for a date that cannot be (docs/decisions.md#fhir-search).
 */
function dates(query: Query, name: string): DateSearch[] {
  return all(query, name).map((raw) => {
    const parsed = parseDateSearch(raw);
    if (parsed.ok) return parsed.value;
    throw detailError(
      400,
      parsed.problem === 'operator'
        ? `the ${name} operator is not valid`
        : `the ${name} value is not a valid date`,
    );
  });
}

/** EOB `type`: a comma list of claim types, optionally prefixed by the eob-type system, any case. */
function eobTypes(query: Query): string[] | undefined {
  const raw = all(query, 'type');
  if (raw.length === 0) return undefined;
  return raw
    .flatMap((v) => v.split(','))
    .map((v) => {
      const code = v.replace(`${EOB_TYPE_SYSTEM}|`, '').trim().toLowerCase();
      if (!(EOB_TYPES as readonly string[]).includes(code)) {
        throw detailError(400, 'the type parameter value is not valid');
      }
      return code;
    });
}

function identifiers(query: Query): TokenValue[][] | undefined {
  const values = all(query, 'identifier').filter((v) => v !== '');
  return values.length === 0 ? undefined : values.map(parseTokenAlternatives);
}

/** `_id` of EOB and Coverage: each parameter a comma list of ids; empty values are ignored. */
function ids(query: Query): string[][] {
  return all(query, '_id')
    .filter((v) => v !== '')
    .map((v) => v.split(','));
}

/**
 * EOB `excludeSAMHSA`: `true` in any case drops the claims marked sensitive, any other value is no
 * filter, as BFD reads it (a Java boolean parse).
 */
const excludeSamhsa = (query: Query) => all(query, 'excludeSAMHSA').some((v) => v.toLowerCase() === 'true');

/** Patient `_id`, Coverage `beneficiary`, EOB `patient`: where a client names whom it asks about. */
const SUBJECT_PARAM: Partial<Record<ResourceType, string>> = {
  Patient: '_id',
  Coverage: 'beneficiary',
  ExplanationOfBenefit: 'patient',
};

/** The filters of each type besides `_lastUpdated` and the subject, echoed in the paging links. */
const FILTERS: Partial<Record<ResourceType, string[]>> = {
  Patient: ['identifier'],
  Coverage: ['_id'],
  ExplanationOfBenefit: [
    '_id',
    'identifier',
    'service-date',
    SERVICE_START_DATE,
    BILLABLE_PERIOD_START,
    'type',
    'excludeSAMHSA',
  ],
};

/**
 * Reads a search's parameters; unknown ones, and `_include` values not served, are ignored, as Blue Button
 * does (docs/decisions.md#fhir-search).
 */
export function parseSearch(type: ResourceType, query: Query): SearchParams {
  const subjectParam = SUBJECT_PARAM[type];
  const subject = subjectParam && all(query, subjectParam)[0]?.replace(/^Patient\//, '');
  const echo: [string, string][] = [];
  for (const name of ['_lastUpdated', ...(FILTERS[type] ?? []), ...(subjectParam ? [subjectParam] : [])]) {
    for (const v of all(query, name)) echo.push([name, v]);
  }
  const { includes, applied, iterate, appliedIterate } = parseIncludes(
    type,
    all(query, '_include'),
    all(query, '_include:iterate'),
  );
  for (const v of applied) echo.push(['_include', v]);
  for (const v of appliedIterate) echo.push(['_include:iterate', v]);
  const eob = type === 'ExplanationOfBenefit';
  return {
    count: integer(query, ['_count', 'count'], DEFAULT_COUNT, 0, MAX_COUNT),
    startIndex: integer(query, ['startIndex'], 0, 0, Number.MAX_SAFE_INTEGER),
    cursor: cursor(query),
    lastUpdated: dates(query, '_lastUpdated').map(instantInterval),
    serviceDate: eob ? dates(query, 'service-date').map(dayInterval) : [],
    eobTypes: eob ? eobTypes(query) : undefined,
    identifiers: type === 'Patient' ? identifiers(query) : undefined,
    ids: eob || type === 'Coverage' ? ids(query) : [],
    tokens: eob
      ? (identifiers(query) ?? []).map((alternatives) => ({ param: EOB_IDENTIFIER, alternatives }))
      : [],
    dates: eob
      ? [SERVICE_START_DATE, BILLABLE_PERIOD_START].flatMap((param) =>
          dates(query, param).map((value) => ({ param, match: dayRangeMatch(value) })),
        )
      : [],
    excludeSamhsa: eob && excludeSamhsa(query),
    subject,
    includes,
    iterate,
    echo,
  };
}
