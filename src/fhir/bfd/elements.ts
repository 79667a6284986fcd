/**
 * The FHIR elements BFD builds from CCW variables, shared by every record type's transform
 * (docs/claims-rif.md#elements). Every CCW variable has a URL under `VARIABLES`; a coded variable's coding
 * uses that URL as its system and the codebook's description as its display.
 */
import { SYSTEMS } from './carin.js';
import { codeDisplay } from './codebook.js';

export type Json = Record<string, unknown>;

/** The base of every CCW variable's URL (`…/variables/nch_clm_type_cd`). */
export const VARIABLES = 'https://bluebutton.cms.gov/resources/variables/';

/** The URL of a CCW variable: its name in lower case under `VARIABLES`. */
export function variableUrl(variable: string): string {
  return VARIABLES + variable.toLowerCase();
}

/**
 * BFD serves two variables under another system than their variable URL (TransformerConstants.CCW_SYSTEM_MAP
 * in BFD's public repository): `CLM_IP_ADMSN_TYPE_CD` under NUBC's admission-type system and `PRVDR_NPI` under
 * the US NPI system.
 */
const SYSTEM_OVERRIDES: Readonly<Record<string, string>> = {
  clm_ip_admsn_type_cd: SYSTEMS.nubcAdmitType,
  prvdr_npi: SYSTEMS.npi,
};

/** The system BFD gives codes and identifiers of a CCW variable: its URL, but for the two overrides. */
export function variableSystem(variable: string): string {
  return SYSTEM_OVERRIDES[variable.toLowerCase()] ?? variableUrl(variable);
}

/**
 * A coding of a coded CCW variable as BFD writes it: the code trimmed, the variable's system, and the
 * codebook's description as display when it has exactly one for the code.
 */
export function variableCoding(variable: string, code: string): Json {
  const trimmed = code.trim();
  const display = codeDisplay(variable, trimmed);
  const coding: Json = { system: variableSystem(variable), code: trimmed };
  if (display !== undefined) coding.display = display;
  return coding;
}

/** A CodeableConcept of one coding of a coded CCW variable. */
export function variableConcept(variable: string, code: string): Json {
  return { coding: [variableCoding(variable, code)] };
}

/** A coding of any system; the display only when given. */
export function coding(system: string, code: string, display?: string): Json {
  return display === undefined ? { system, code } : { system, code, display };
}

/** An extension whose value is the coding of a coded CCW variable. */
export function codingExtension(variable: string, code: string): Json {
  return { url: variableUrl(variable), valueCoding: variableCoding(variable, code) };
}

/** An extension whose value is an identifier in the variable's own system. */
export function identifierExtension(variable: string, value: string): Json {
  return { url: variableUrl(variable), valueIdentifier: { system: variableUrl(variable), value } };
}

/** An extension whose value is a quantity (a count or an amount that is not money). */
export function quantityExtension(variable: string, value: number): Json {
  return { url: variableUrl(variable), valueQuantity: { value } };
}

/** An extension whose value is a date (`YYYY-MM-DD`, or a year `YYYY`). */
export function dateExtension(variable: string, date: string): Json {
  return { url: variableUrl(variable), valueDate: date };
}

/** An identifier in the variable's system. */
export function variableIdentifier(variable: string, value: string): Json {
  return { system: variableSystem(variable), value };
}

/** US dollars, as BFD writes every amount. */
export function money(value: number): Json {
  return { value, currency: 'USD' };
}

/** A RIF decimal column as a number; undefined when empty or not a number. */
export function decimal(raw: string): number | undefined {
  if (raw === '' || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(raw)) return undefined;
  return Number(raw);
}
