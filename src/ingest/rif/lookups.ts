/**
 * The names a batch of claims needs from reference data, read before its claims are transformed so the
 * transforms can ask synchronously (docs/claims-rif.md#names): each NPI the claims carry is looked up in
 * the NPPES directory the plan API loads (`ingest nppes`: table `providers`), with the NUCC display of its
 * primary taxonomy (`ingest nucc-taxonomy`: table `provider_taxonomies`). No FDA NDC directory and no ICD
 * or procedure descriptions are loaded, so drug names and code descriptions are never found.
 */
import type { Transaction } from 'kysely';
import type { ClaimLookups, NpiRecord } from '../../fhir/bfd/lookups.js';
import type { Database } from '../../storage/schema.js';

/** Reads the names a batch needs: `npis` are the batch's NPI values. */
export type BatchLookups = (trx: Transaction<Database>, npis: ReadonlySet<string>) => Promise<ClaimLookups>;

/** How many NPIs one directory read asks for. */
const CHUNK = 500;

/**
 * The NPPES directory's answer for one NPI. The directory keeps an individual's name as one text (first,
 * middle, last name and suffix, then `, credential`): the credential is split off and the rest given as
 * the last name, so a display that joins the parts reads as NPPES's name; the name prefix is not kept.
 */
export function npiRecordOf(row: {
  type: string;
  name: string;
  taxonomy: string;
  display_name: string | null;
}): NpiRecord {
  const taxonomy = row.taxonomy === '' ? {} : { taxonomyCode: row.taxonomy };
  const display = row.display_name ? { taxonomyDisplay: row.display_name } : {};
  if (row.type !== 'Individual') {
    return { entityType: '2', organizationName: row.name, ...taxonomy, ...display };
  }
  const comma = row.name.indexOf(', ');
  const name = comma === -1 ? row.name : row.name.slice(0, comma);
  const credential = comma === -1 ? {} : { credential: row.name.slice(comma + 2) };
  return { entityType: '1', lastName: name, ...credential, ...taxonomy, ...display };
}

/** The NPPES records of those of `npis` the directory holds (with their primary taxonomy's NUCC name). */
export async function readNpiRecords(
  trx: Transaction<Database>,
  npis: ReadonlySet<string>,
): Promise<Map<string, NpiRecord>> {
  const found = new Map<string, NpiRecord>();
  const wanted = [...npis];
  for (let i = 0; i < wanted.length; i += CHUNK) {
    const rows = await trx
      .selectFrom('providers as p')
      .leftJoin('provider_taxonomies as t', 't.code', 'p.taxonomy')
      .select(['p.npi', 'p.type', 'p.name', 'p.taxonomy', 't.display_name'])
      .where('p.npi', 'in', wanted.slice(i, i + CHUNK))
      .execute();
    for (const row of rows) found.set(row.npi, npiRecordOf(row));
  }
  return found;
}

/** Lookups answering from NPPES records read for a batch; no drug names or code descriptions are loaded. */
export function lookupsOf(npis: ReadonlyMap<string, NpiRecord>): ClaimLookups {
  return {
    npi: (npi) => npis.get(npi),
    drugName: () => undefined,
    codeDescription: () => undefined,
  };
}

/** Names from the directories loaded in this database (an empty directory finds nothing). */
export const storedLookups: BatchLookups = async (trx, npis) => lookupsOf(await readNpiRecords(trx, npis));

/**
 * `storedLookups` for one load, which remembers what it read: the directories do not change within the
 * load's transaction, and a claim file names the same providers batch after batch.
 */
export function loadLookups(): BatchLookups {
  const asked = new Set<string>();
  const found = new Map<string, NpiRecord>();
  const lookups = lookupsOf(found);
  return async (trx, npis) => {
    const unread = new Set([...npis].filter((npi) => !asked.has(npi)));
    if (unread.size > 0) {
      for (const [npi, record] of await readNpiRecords(trx, unread)) found.set(npi, record);
      for (const npi of unread) asked.add(npi);
    }
    return lookups;
  };
}
