/**
 * A claim's ICD procedures as BFD serves them (CCWProcedure, TransformerUtilsV2.extractCCWProcedures and
 * addProcedureCode in BFD's public repository; docs/claims-rif.md#elements): `ICD_PRCDR_CD1`–`25` with their
 * version codes and dates (`PRCDR_DT1`–`25`), each code once per system, an ICD-10 code also under CMS's ICD-10
 * system (first), displayed with the code's description when the lookups know it.
 */
import { field, midnightDateTime } from './ccw.js';
import { ICD_SYSTEMS, icdSystem } from './diagnosis.js';
import type { Json } from './elements.js';
import type { ClaimLookups } from './lookups.js';
import { type RifRow, rifDate } from './rif-record.js';
import { arrayOf } from './supporting-info.js';

/** One procedure read from the claim's columns. */
export interface Procedure {
  readonly code: string;
  /** The CCW version code ('9', '0'); undefined when the column is empty. */
  readonly version?: string;
  /** `YYYY-MM-DD`; undefined when the column is empty. */
  readonly date?: string;
}

/** The procedures of a claim row, 1 to 25, those with a code. */
export function extractProcedures(row: RifRow): Procedure[] {
  const procedures: Procedure[] = [];
  for (let i = 1; i <= 25; i++) {
    const code = field(row, `ICD_PRCDR_CD${i}`);
    if (code === undefined) continue;
    const version = field(row, `ICD_PRCDR_VRSN_CD${i}`);
    const rawDate = field(row, `PRCDR_DT${i}`);
    const date = rawDate === undefined ? undefined : rifDate(rawDate);
    if (rawDate !== undefined && date === undefined)
      throw new Error(`RIF column PRCDR_DT${i} is not a date: '${rawDate}'`);
    procedures.push({
      code,
      ...(version === undefined ? {} : { version }),
      ...(date === undefined ? {} : { date }),
    });
  }
  return procedures;
}

/** The procedure as a CodeableConcept: ICD-10 codes also as CMS's ICD-10 (first), displayed when known. */
export function procedureConcept(procedure: Procedure, lookups: ClaimLookups): Json {
  const system = icdSystem(procedure.version);
  const display = lookups.codeDescription(system, procedure.code);
  const systems = system === ICD_SYSTEMS.icd10 ? [ICD_SYSTEMS.icd10Medicare, system] : [system];
  return {
    coding: systems.map((s) =>
      display === undefined
        ? { system: s, code: procedure.code }
        : { system: s, code: procedure.code, display },
    ),
  };
}

/**
 * Adds the procedure to the claim unless its code is there already in the same system, and returns its
 * sequence either way. Its date is written as BFD writes a dateTime made from a day.
 */
export function addProcedure(eob: Json, procedure: Procedure, lookups: ClaimLookups): number {
  const system = icdSystem(procedure.version);
  const procedures = arrayOf(eob, 'procedure');
  const existing = procedures.find((p) =>
    (((p.procedureCodeableConcept as Json | undefined)?.coding ?? []) as Json[]).some(
      (c) => c.system === system && c.code === procedure.code,
    ),
  );
  if (existing !== undefined) return existing.sequence as number;
  const entry: Json = { sequence: procedures.length + 1 };
  if (procedure.date !== undefined) entry.date = midnightDateTime(procedure.date);
  entry.procedureCodeableConcept = procedureConcept(procedure, lookups);
  procedures.push(entry);
  return entry.sequence as number;
}

/** Adds every procedure of the claim's (first) row. */
export function addProcedures(eob: Json, row: RifRow, lookups: ClaimLookups): void {
  for (const procedure of extractProcedures(row)) addProcedure(eob, procedure, lookups);
}
