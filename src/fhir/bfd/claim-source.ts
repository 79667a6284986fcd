/**
 * A claim loaded from RIF files as it is stored: its RIF cells, its version and the names looked up for it
 * at load (the `source` of its `fhir_resources` row), and the ExplanationOfBenefit made of it when it is
 * first read (docs/claims-rif.md#storage). Blue Button's backend keeps the CCW's rows and transforms them
 * per request; keeping the rows makes a load write a few hundred bytes per claim line instead of the ten
 * kilobytes of JSON a BFD-shaped line becomes, and the first read stores the JSON for every later one.
 *
 * What a search filters on is computed at load from the same rows (`claimSearchFacts`): the claim's header,
 * diagnoses, procedures, DRG and line codes and dates are built with the transforms' own functions into a
 * skeleton EOB, whose facts are read as every stored EOB's are (validate.ts `eobSearchFacts`).
 */
import { SYNTHETIC_TAG } from '../directory.js';
import { eobSearchFacts, type ResourceFacts } from '../validate.js';
import { field, requiredField } from './ccw.js';
import { SYSTEMS } from './carin.js';
import { type Diagnosis, diagnosisConcept, extractDiagnoses, icdSystem, lineDiagnosis } from './diagnosis.js';
import { type Json, variableCoding, variableUrl } from './elements.js';
import { claimIdentifier, eobStatus, eobType, longText, optionalDate, requiredDate } from './eob-header.js';
import { inpatientProductOrService } from './inpatient.js';
import { NO_LOOKUPS, type ClaimLookups, type NpiRecord } from './lookups.js';
import { productNdc } from './npi-names.js';
import { type Procedure, extractProcedures, procedureConcept } from './procedure.js';
import { hcpcsProductOrService, withoutTaxNumbers } from './professional.js';
import { rifDate, type RifClaim, type RifClaimType, type RifRow } from './rif-record.js';
import { servedTransforms } from './transform.js';
import type { SourceBodies } from '../store/resources.js';

/** The names a claim's resource shows, as looked up when it was loaded: only those that were found. */
export interface ClaimNames {
  /** NPPES records by NPI. */
  npi?: Record<string, NpiRecord>;
  /** FDA drug names by product NDC (`labeler-product`). */
  drug?: Record<string, string>;
  /** Code descriptions by `system|code`. */
  code?: Record<string, string>;
}

/** The stored form of a claim (JSON in `fhir_resources.source`). */
export interface ClaimSource {
  /** Kept where a stored body keeps it, so the stored version is read alike from either. */
  meta: { versionId: string };
  /** The `rif_layouts` row naming the cells' columns. */
  layout: string;
  /** Each line's cells, in the layout's order. */
  rows: string[][];
  names: ClaimNames;
}

/** A synthetic beneficiary (BFD's synthetic data has negative BENE_IDs): its resources carry the tag. */
export const isSyntheticBene = (beneId: string) => beneId.startsWith('-');

/** Adds the synthetic-data tag to `resource.meta.tag`. */
export function tagSynthetic(resource: Json): void {
  const meta = (resource.meta ?? {}) as Json;
  const tags = Array.isArray(meta.tag) ? (meta.tag as unknown[]) : [];
  resource.meta = { ...meta, tag: [...tags, { ...SYNTHETIC_TAG }] };
}

/**
 * The columns of a header that hold NPIs: every CCW variable named for one (`RFR_PHYSN_NPI`,
 * `ORG_NPI_NUM`, `CARR_CLM_BLG_NPI_NUM`, …) and the Part D event's prescriber and pharmacy ids (NPIs when
 * their qualifier says so; a lookup of another kind of id finds nothing).
 */
export function npiColumns(names: Iterable<string>): string[] {
  return [...names].filter((n) => n.includes('NPI') || n === 'PRSCRBR_ID' || n === 'SRVC_PRVDR_ID');
}

/** Adds the NPI values of `rows` (in `columns`) to `into`. */
export function collectNpis(rows: readonly RifRow[], columns: readonly string[], into: Set<string>): void {
  for (const row of rows) {
    for (const column of columns) {
      const value = row[column];
      if (value !== undefined && value !== '') into.add(value.trim());
    }
  }
}

/**
 * The columns whose NDC the transforms name from FDA's list: a Part D event's drug, a carrier or DME line's
 * NDC, an outpatient line's NDC, IDE or UPC number.
 */
const NDC_COLUMNS = ['PROD_SRVC_ID', 'LINE_NDC_CD', 'REV_CNTR_IDE_NDC_UPC_NUM'];

/** What the transforms may look up for a claim: its NPIs, its drugs' product NDCs, its codes by system. */
export interface NameKeys {
  npis: string[];
  products: string[];
  /** `[system, code]` of its diagnoses and procedures, in the systems their version codes name. */
  codes: [string, string][];
}

/**
 * The names the transforms may ask for this claim (`npiColumns`: the header's NPI columns; `codes`: its
 * diagnoses and procedures, when already read).
 */
export function claimNameKeys(
  claim: RifClaim,
  npiColumns: readonly string[],
  codes: ClaimCodes = claimCodes(claim),
): NameKeys {
  const npis = new Set<string>();
  collectNpis(claim.rows, npiColumns, npis);
  const products = new Set<string>();
  for (const row of claim.rows) {
    for (const column of NDC_COLUMNS) {
      const product = productNdc(field(row, column) ?? '');
      if (product !== undefined) products.add(product);
    }
  }
  const bySystem = new Map<string, [string, string]>();
  for (const { code, version } of [...codes.diagnoses, ...codes.procedures]) {
    const system = icdSystem(version);
    bySystem.set(`${system}|${code}`, [system, code]);
  }
  return { npis: [...npis], products: [...products], codes: [...bySystem.values()] };
}

/** What `lookups` finds of `keys`: only the names found are kept. */
export function namesOf(keys: NameKeys, lookups: ClaimLookups): ClaimNames {
  const names: ClaimNames = {};
  for (const npi of keys.npis) {
    const record = lookups.npi(npi);
    if (record !== undefined) (names.npi ??= {})[npi] = record;
  }
  for (const product of keys.products) {
    const name = lookups.drugName(product);
    if (name !== undefined) (names.drug ??= {})[product] = name;
  }
  for (const [system, code] of keys.codes) {
    const description = lookups.codeDescription(system, code);
    if (description !== undefined) (names.code ??= {})[`${system}|${code}`] = description;
  }
  return names;
}

/** Lookups answering from the names stored with a claim. */
export function storedNames(names: ClaimNames): ClaimLookups {
  return {
    npi: (npi) => names.npi?.[npi],
    drugName: (product) => names.drug?.[product],
    codeDescription: (system, code) => names.code?.[`${system}|${code}`],
  };
}

/** A claim's rows as column → text, from its stored cells and its layout's columns. */
export function rowsOf(columns: readonly string[], cells: readonly (readonly string[])[]): RifRow[] {
  return cells.map((line) => {
    const row: Record<string, string> = {};
    // A repeated column name takes its last cell, as when the file was read (records.ts).
    for (let i = 0; i < columns.length; i++) row[columns[i]!] = line[i] ?? '';
    return row;
  });
}

/** The types whose EOB lists ICD procedures and, for inpatient and SNF stays, the DRG. */
const WITH_PROCEDURES = new Set<RifClaimType>(['inpatient', 'outpatient', 'snf']);
/** The types whose lines carry a diagnosis of their own. */
const WITH_LINE_DIAGNOSES = new Set<RifClaimType>(['carrier', 'dme']);

/** A claim's ICD codes as its transform reads them. */
export interface ClaimCodes {
  /** The claim's diagnoses, then each line's own (carrier and DME), in order. */
  diagnoses: Diagnosis[];
  /** Its ICD procedures (inpatient, outpatient, SNF). */
  procedures: Procedure[];
}

/** Reads a claim's diagnoses and procedures once, for its search values and its names. */
export function claimCodes(claim: RifClaim): ClaimCodes {
  const [first] = claim.rows;
  if (first === undefined || claim.type === 'pde') return { diagnoses: [], procedures: [] };
  const diagnoses = extractDiagnoses(first);
  if (WITH_LINE_DIAGNOSES.has(claim.type)) {
    for (const line of claim.rows) {
      const own = lineDiagnosis(line);
      if (own !== undefined) diagnoses.push(own);
    }
  }
  return { diagnoses, procedures: WITH_PROCEDURES.has(claim.type) ? extractProcedures(first) : [] };
}
const WITH_DRG = new Set<RifClaimType>(['inpatient', 'snf']);
/** The types whose lines are dated by their revenue-centre date. */
const REVENUE_DATED = new Set<RifClaimType>(['hha', 'hospice', 'outpatient']);

/** A line's first service day: carrier and DME lines' first expense date, institutional lines' revenue date. */
function lineStart(type: RifClaimType, line: RifRow): string | undefined {
  if (type === 'carrier' || type === 'dme') return rifDate(field(line, 'LINE_1ST_EXPNS_DT') ?? '');
  return REVENUE_DATED.has(type) ? optionalDate(line, 'REV_CNTR_DT') : undefined;
}

/**
 * The parts of a claim's EOB its searches read, made as the transforms make them but with nothing else: the
 * claim identifiers, status (which refuses a final action other than F or N), type and billable period of
 * the header (eob-header.ts), the diagnoses (with each line's own), ICD procedures and DRG as their codings,
 * and each line's code and first service day. A Part D event is one row and its transform is short: it is
 * made whole, which checks it as its read will.
 */
function searchSkeleton(claim: RifClaim, codes: ClaimCodes): Json {
  const { type, rows } = claim;
  if (type === 'pde') return servedTransforms.claimEob(claim, { lookups: NO_LOOKUPS, created: '' });
  const first = rows[0];
  if (first === undefined) throw new Error('a claim has at least one row');
  const claimId = longText(requiredField(first, 'CLM_ID'));
  requiredField(first, 'BENE_ID');
  const eob: Json = {
    identifier: [
      claimIdentifier(variableUrl('CLM_ID'), claimId),
      claimIdentifier(SYSTEMS.claimGroup, longText(field(first, 'CLM_GRP_ID') ?? '0')),
    ],
    status: eobStatus(requiredField(first, 'FINAL_ACTION')),
    type: eobType(type, first),
  };
  const start = optionalDate(first, 'CLM_FROM_DT');
  if (start !== undefined) eob.billablePeriod = { start, end: requiredDate(first, 'CLM_THRU_DT') };
  const drg = WITH_DRG.has(type) ? field(first, 'CLM_DRG_CD') : undefined;
  if (drg !== undefined) eob.supportingInfo = [{ code: { coding: [variableCoding('CLM_DRG_CD', drg)] } }];
  eob.item = rows.map((line) => {
    const item: Json = {
      productOrService:
        type === 'inpatient'
          ? inpatientProductOrService(field(line, 'HCPCS_CD'))
          : hcpcsProductOrService(line),
    };
    const day = lineStart(type, line);
    if (day !== undefined) item.servicedDate = day;
    return item;
  });
  eob.diagnosis = codes.diagnoses.map((d) => ({
    diagnosisCodeableConcept: diagnosisConcept(d, NO_LOOKUPS),
  }));
  eob.procedure = codes.procedures.map((p) => ({
    procedureCodeableConcept: procedureConcept(p, NO_LOOKUPS),
  }));
  return eob;
}

/**
 * What the EOB searches filter on for this claim, as `eobSearchFacts` reads them from the served EOB; throws
 * with the reason when no EOB can be made of the claim.
 */
export function claimSearchFacts(
  claim: RifClaim,
  codes: ClaimCodes = claimCodes(claim),
): Pick<ResourceFacts, 'serviceDate' | 'tokens' | 'dates' | 'samhsa'> {
  return eobSearchFacts(searchSkeleton(claim, codes));
}

/** A stored claim as the store hands it over to be made into its resource. */
export interface StoredClaim {
  id: string;
  patientId: string;
  eobType: RifClaimType;
  /** Epoch milliseconds of the load: the resource's `meta.lastUpdated` and `created`. */
  lastUpdated: number;
  source: ClaimSource;
}

/**
 * The ExplanationOfBenefit JSON of a stored claim: the served transform (conformed to CARIN) with the names
 * of its load, the synthetic tag for a synthetic beneficiary, then its version and time. The lines' tax
 * numbers are in it only when `taxNumbers` asks for them (BFD's `IncludeTaxNumbers: true`), so the body
 * stored at the first read is BFD's default answer, served without being parsed (docs/claims-rif.md#tax-numbers).
 */
export function claimBody(claim: StoredClaim, columns: readonly string[], taxNumbers = false): string {
  const created = new Date(claim.lastUpdated).toISOString();
  const rows = rowsOf(columns, claim.source.rows);
  const eob = servedTransforms.claimEob(
    { type: claim.eobType, rows },
    { lookups: storedNames(claim.source.names), created },
  );
  if (eob.id !== claim.id) throw new Error(`the claim's resource is ${String(eob.id)}, not ${claim.id}`);
  if (isSyntheticBene(claim.patientId)) tagSynthetic(eob);
  eob.meta = { ...(eob.meta as Json), versionId: claim.source.meta.versionId, lastUpdated: created };
  return JSON.stringify(taxNumbers ? eob : withoutTaxNumbers(eob));
}

/** How the FHIR store makes the resources of claims stored as their RIF rows. */
export const rifClaimSources: SourceBodies = {
  async build(row, columns, taxNumbers) {
    const source = JSON.parse(row.source) as ClaimSource;
    const claim: StoredClaim = {
      id: row.id,
      patientId: row.patientId,
      eobType: row.eobType as RifClaimType,
      lastUpdated: row.lastUpdated,
      source,
    };
    return claimBody(claim, await columns(source.layout), taxNumbers);
  },
};
