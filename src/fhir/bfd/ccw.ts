/**
 * Small pieces every claim transform needs on top of elements.ts: reading a RIF column as "present or not",
 * and codings of CCW variables in the system BFD actually uses. BFD serves two variables under another
 * system than their CCW variable URL (TransformerConstants.CCW_SYSTEM_MAP in BFD's public repository):
 * `CLM_IP_ADMSN_TYPE_CD` under NUBC's admission-type system and `PRVDR_NPI` under the US NPI system.
 */
import { codeDisplay } from './codebook.js';
import { SYSTEMS } from './carin.js';
import { type Json, variableUrl } from './elements.js';
import type { RifRow } from './rif-record.js';

/** A column's raw text, or undefined when the row lacks the column or it is empty. */
export function field(row: RifRow, column: string): string | undefined {
  const value = row[column];
  return value === undefined || value === '' ? undefined : value;
}

/** A column that must be present; throws naming the column when it is not. */
export function requiredField(row: RifRow, column: string): string {
  const value = field(row, column);
  if (value === undefined) throw new Error(`RIF column ${column} is empty`);
  return value;
}

const SYSTEM_OVERRIDES: Readonly<Record<string, string>> = {
  clm_ip_admsn_type_cd: SYSTEMS.nubcAdmitType,
  prvdr_npi: SYSTEMS.npi,
};

/** The system BFD gives codes and identifiers of a CCW variable: its variable URL, but for the two overrides. */
export function ccwSystem(variable: string): string {
  return SYSTEM_OVERRIDES[variable.toLowerCase()] ?? variableUrl(variable);
}

/**
 * A coding of a coded CCW variable as BFD writes it: the code trimmed, the variable's system (with the
 * overrides above), and the codebook's description as display when it has exactly one for the code.
 */
export function ccwCoding(variable: string, code: string): Json {
  const trimmed = code.trim();
  const display = codeDisplay(variable, trimmed);
  const coding: Json = { system: ccwSystem(variable), code: trimmed };
  if (display !== undefined) coding.display = display;
  return coding;
}

/** A CodeableConcept of one `ccwCoding`. */
export function ccwConcept(variable: string, code: string): Json {
  return { coding: [ccwCoding(variable, code)] };
}

/** An extension (at the variable's URL) whose value is a `ccwCoding`. */
export function ccwCodingExtension(variable: string, code: string): Json {
  return { url: variableUrl(variable), valueCoding: ccwCoding(variable, code) };
}

/** An identifier in the variable's system (with the overrides above). */
export function ccwIdentifier(variable: string, value: string): Json {
  return { system: ccwSystem(variable), value };
}

/**
 * A date as BFD serialises a FHIR dateTime it made from a day (a procedure's date): midnight, UTC offset
 * written out (`2016-01-16T00:00:00+00:00`).
 */
export function midnightDateTime(date: string): string {
  return `${date}T00:00:00+00:00`;
}
