/**
 * `EOB.supportingInfo` as BFD fills it (TransformerUtilsV2.addInformation* in BFD's public repository): each
 * entry numbered one past the highest sequence so far, its category either a CARIN supporting-info slice or,
 * for a CCW variable, HL7's "info" category plus a Blue Button `information` coding naming the variable
 * (docs/claims-rif.md#elements).
 */
import { SUPPORTING_INFO, SYSTEMS, type SupportingInfoSlice, fixedCoding } from './carin.js';
import { field } from './ccw.js';
import { variableConcept } from './elements.js';
import { variableLabel } from './codebook.js';
import { type Json, variableUrl } from './elements.js';
import type { RifRow } from './rif-record.js';

/** The array under `key`, created empty when missing. */
export function arrayOf(parent: Json, key: string): Json[] {
  const existing = parent[key];
  if (Array.isArray(existing)) return existing as Json[];
  const created: Json[] = [];
  parent[key] = created;
  return created;
}

/** A coding naming a CCW variable in one of Blue Button's code systems, labelled from the codebook. */
export function variableNameCoding(system: string, variable: string): Json {
  const label = variableLabel(variable);
  return label === undefined
    ? { system, code: variableUrl(variable) }
    : { system, code: variableUrl(variable), display: label };
}

/**
 * The variables BFD files under a CARIN category instead of HL7's "info" (TransformerConstants'
 * CARIN_CATEGORY_*_MAP): the inpatient admission type is CARIN's `admtype`.
 */
const CARIN_CATEGORIES: Readonly<Record<string, { system: string; code: string }>> = {
  clm_ip_admsn_type_cd: { system: SYSTEMS.c4bbSupportingInfoType, code: 'admtype' },
};

/** The category of a CCW variable's supporting information: the info (or CARIN) coding, then the variable. */
export function informationCategory(variable: string): Json {
  const carin = CARIN_CATEGORIES[variable.toLowerCase()] ?? {
    system: SYSTEMS.claimInformationCategory,
    code: 'info',
  };
  return {
    coding: [
      { system: carin.system, code: carin.code, display: 'Information' },
      variableNameCoding(SYSTEMS.information, variable),
    ],
  };
}

/** One past the highest `sequence` of the entries (1 for none). */
export function nextSequence(entries: readonly Json[]): number {
  return entries.reduce((max, e) => Math.max(max, typeof e.sequence === 'number' ? e.sequence : 0), 0) + 1;
}

/** Appends a supporting-info entry with the given category and returns it, for the caller to give a value. */
export function addInformationEntry(eob: Json, category: Json): Json {
  const entries = arrayOf(eob, 'supportingInfo');
  const entry: Json = { sequence: nextSequence(entries), category };
  entries.push(entry);
  return entry;
}

/** Appends an entry categorised by a CCW variable (value to be set by the caller). */
export function addInformation(eob: Json, variable: string): Json {
  return addInformationEntry(eob, informationCategory(variable));
}

/** Appends an entry of a CARIN supporting-info slice (value to be set by the caller). */
export function addInformationSlice(eob: Json, slice: SupportingInfoSlice): Json {
  return addInformationEntry(eob, { coding: [fixedCoding(SUPPORTING_INFO[slice])] });
}

/**
 * Appends an entry categorised by `categoryVariable` whose code is `code` of `codeVariable` (the two are
 * the same variable everywhere BFD uses this).
 */
export function addInformationWithCode(
  eob: Json,
  categoryVariable: string,
  codeVariable: string,
  code: string,
): Json {
  const entry = addInformation(eob, categoryVariable);
  entry.code = variableConcept(codeVariable, code);
  return entry;
}

/**
 * Appends an entry categorised and coded by the CCW variable of a coded RIF column (`variable`, the column's
 * own name unless the codebook spells it otherwise) when the row has a code there; nothing when it is empty.
 */
export function addCodedInformation(
  eob: Json,
  row: RifRow,
  column: string,
  variable: string = column,
): Json | undefined {
  const code = field(row, column);
  return code === undefined ? undefined : addInformationWithCode(eob, variable, variable, code);
}

/** Appends a CARIN slice whose code is `code` of `codeVariable`; nothing when the code is absent. */
export function addInformationSliceWithCode(
  eob: Json,
  slice: SupportingInfoSlice,
  codeVariable: string,
  code: string | undefined,
): Json | undefined {
  if (code === undefined || code === '') return undefined;
  const entry = addInformationSlice(eob, slice);
  entry.code = variableConcept(codeVariable, code);
  return entry;
}

/** Appends an entry categorised by a CCW variable whose timing is a date (`YYYY-MM-DD`). */
export function addInformationWithDate(eob: Json, variable: string, date: string): Json {
  const entry = addInformation(eob, variable);
  entry.timingDate = date;
  return entry;
}

/**
 * The claim-received-date slice (CARIN `clmrecvddate`, named by the CCW variable too, `NCH_WKLY_PROC_DT` for
 * BFD's claims) with its date as timing; nothing when the date is absent.
 */
export function addReceivedDate(eob: Json, variable: string, date: string | undefined): Json | undefined {
  if (date === undefined) return undefined;
  const entry = addInformationEntry(eob, {
    coding: [fixedCoding(SUPPORTING_INFO.receivedDate), variableNameCoding(SYSTEMS.information, variable)],
  });
  entry.timingDate = date;
  return entry;
}

/** A period of whichever ends are known (dates `YYYY-MM-DD`); undefined for neither. */
function periodOf(start: string | undefined, end: string | undefined): Json | undefined {
  if (start === undefined && end === undefined) return undefined;
  const period: Json = {};
  if (start !== undefined) period.start = start;
  if (end !== undefined) period.end = end;
  return period;
}

/**
 * Appends an entry categorised by a CCW variable whose timing is the period from `start` to `end`, whichever
 * ends are known; nothing for neither.
 */
export function addInformationWithPeriod(
  eob: Json,
  variable: string,
  start: string | undefined,
  end: string | undefined,
): Json | undefined {
  const period = periodOf(start, end);
  if (period === undefined) return undefined;
  const entry = addInformation(eob, variable);
  entry.timingPeriod = period;
  return entry;
}

/** The admission-period slice (CARIN `admissionperiod`) from whichever ends are known; nothing for neither. */
export function addAdmissionPeriod(
  eob: Json,
  start: string | undefined,
  end: string | undefined,
): Json | undefined {
  const period = periodOf(start, end);
  if (period === undefined) return undefined;
  const entry = addInformationSlice(eob, 'admissionPeriod');
  entry.timingPeriod = period;
  return entry;
}
