import { detailError } from '../oauth/errors.js';
import type { ComparisonOp } from '../store/fhir.js';
import { EOB_TYPE_SYSTEM, EOB_TYPES, type ResourceType } from './validate.js';

/** Research §4.3: `_count` 0–50, 10 by default; `startIndex` is a 0-based offset. */
export const DEFAULT_COUNT = 10;
export const MAX_COUNT = 50;

export interface SearchParams {
  count: number;
  startIndex: number;
  lastUpdated: { op: ComparisonOp; value: number }[];
  serviceDate: { op: ComparisonOp; value: string }[];
  eobTypes: string[] | undefined;
  /** Patient `_id`, Coverage `beneficiary`, EOB `patient`: who the client says it is asking about. */
  subject: string | undefined;
  /** The parameters echoed in paging links (filters only; paging is added per link). */
  echo: [string, string][];
}

type Query = Record<string, string | string[] | undefined>;

function all(query: Query, name: string): string[] {
  const value = query[name];
  return value === undefined ? [] : [value].flat();
}

function integer(query: Query, names: string[], fallback: number, min: number, max: number): number {
  const raw = names.flatMap((n) => all(query, n))[0];
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw detailError(400, `${names[0]} must be a whole number`);
  const value = Number(raw);
  if (value < min) throw detailError(400, `value must be at least ${min}`);
  if (value > max) throw detailError(400, `value must be at most ${max}`);
  return value;
}

/** `lt|le|gt|ge` followed by a value; anything else is the named parameter's error (research §4.3). */
function prefixed(values: string[], message: string): { op: ComparisonOp; rest: string }[] {
  return values.map((v) => {
    const m = /^(lt|le|gt|ge)(.+)$/.exec(v);
    if (!m) throw detailError(400, message);
    return { op: m[1] as ComparisonOp, rest: m[2]! };
  });
}

function lastUpdated(query: Query) {
  return prefixed(all(query, '_lastUpdated'), 'the _lastUpdated operator is not valid').map(
    ({ op, rest }) => {
      const value = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(rest) ? `${rest}T00:00:00Z` : rest);
      if (!Number.isFinite(value)) throw detailError(400, 'the _lastUpdated value is not a valid date');
      return { op, value };
    },
  );
}

function serviceDate(query: Query) {
  return prefixed(all(query, 'service-date'), 'the service-date operator is not valid').map(
    ({ op, rest }) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(rest))
        throw detailError(400, 'the service-date value is not a valid date');
      return { op, value: rest };
    },
  );
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

const SUBJECT_PARAM: Record<ResourceType, string> = {
  Patient: '_id',
  Coverage: 'beneficiary',
  ExplanationOfBenefit: 'patient',
};

/** Reads a search's parameters; unknown ones are ignored, as the anchor does. */
export function parseSearch(type: ResourceType, query: Query): SearchParams {
  const subjectParam = SUBJECT_PARAM[type];
  const subject = all(query, subjectParam)[0]?.replace(/^Patient\//, '');
  const echo: [string, string][] = [];
  for (const name of ['_lastUpdated', 'service-date', 'type', subjectParam]) {
    for (const v of all(query, name)) echo.push([name, v]);
  }
  return {
    count: integer(query, ['_count', 'count'], DEFAULT_COUNT, 0, MAX_COUNT),
    startIndex: integer(query, ['startIndex'], 0, 0, Number.MAX_SAFE_INTEGER),
    lastUpdated: lastUpdated(query),
    serviceDate: type === 'ExplanationOfBenefit' ? serviceDate(query) : [],
    eobTypes: type === 'ExplanationOfBenefit' ? eobTypes(query) : undefined,
    subject,
    echo,
  };
}
