import { detailError } from '../shared/detail-error.js';
import type { ColumnInterval } from './store/resources.js';
import { dayInterval, instantInterval, parseDateSearch, type DateSearch } from './date-search.js';
import { parseIncludes, type Include } from './include.js';
import { parseTokenAlternatives, type TokenValue } from './token-search.js';
import { EOB_TYPE_SYSTEM, EOB_TYPES, type ResourceType } from './validate.js';

/** `_count` 0–50, 10 by default; `startIndex` is a 0-based offset (docs/decisions.md#fhir-search). */
export const DEFAULT_COUNT = 10;
export const MAX_COUNT = 50;

export interface SearchParams {
  count: number;
  startIndex: number;
  /** Epoch-ms intervals of `last_updated`, one per `_lastUpdated` value (all apply). */
  lastUpdated: ColumnInterval<number>[];
  /** `YYYY-MM-DD` intervals of `service_date`, one per `service-date` value (all apply). */
  serviceDate: ColumnInterval<string>[];
  eobTypes: string[] | undefined;
  /** Patient `identifier`: each parameter's alternatives (all parameters apply); undefined when absent. */
  identifiers: TokenValue[][] | undefined;
  /** Patient `_id`, Coverage `beneficiary`, EOB `patient`: who the client says it is asking about. */
  subject: string | undefined;
  /** The served `_include` values (include.ts); the others are ignored. */
  includes: Include[];
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

/** Patient `_id`, Coverage `beneficiary`, EOB `patient`: where a client names whom it asks about. */
const SUBJECT_PARAM: Partial<Record<ResourceType, string>> = {
  Patient: '_id',
  Coverage: 'beneficiary',
  ExplanationOfBenefit: 'patient',
};

/** The filters of each type besides `_lastUpdated` and the subject, echoed in the paging links. */
const FILTERS: Partial<Record<ResourceType, string[]>> = {
  Patient: ['identifier'],
  ExplanationOfBenefit: ['service-date', 'type'],
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
  const { includes, applied } = parseIncludes(type, all(query, '_include'));
  for (const v of applied) echo.push(['_include', v]);
  return {
    count: integer(query, ['_count', 'count'], DEFAULT_COUNT, 0, MAX_COUNT),
    startIndex: integer(query, ['startIndex'], 0, 0, Number.MAX_SAFE_INTEGER),
    lastUpdated: dates(query, '_lastUpdated').map(instantInterval),
    serviceDate: type === 'ExplanationOfBenefit' ? dates(query, 'service-date').map(dayInterval) : [],
    eobTypes: type === 'ExplanationOfBenefit' ? eobTypes(query) : undefined,
    identifiers: type === 'Patient' ? identifiers(query) : undefined,
    subject,
    includes,
    echo,
  };
}
