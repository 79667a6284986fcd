/**
 * Beneficiaries and their history, and the Patient and Coverage resources built from them
 * (docs/claims-rif.md#rif). A beneficiary's latest row is kept in `rif_beneficiaries` and each history row
 * (beneficiary history, MBI history, and the identity an UPDATE replaced) in `rif_beneficiary_history`, so
 * that whichever arrives first, later or in another load, the Patient and Coverages are built again from
 * both whenever either changes. The DML indicator is honoured as BFD's pipeline does in production: an
 * INSERT of a stored beneficiary does nothing, an UPDATE of one that is not stored is refused (BFD's
 * pipeline stops on it), and an UPDATE that changes the identity (MBI, HICN, MBI start, birth date, sex)
 * first keeps the replaced identity as a history row, as BFD's does.
 */
import { createHash } from 'node:crypto';
import type { RifBeneficiary, RifRow } from '../../fhir/bfd/rif-record.js';
import { rifDate } from '../../fhir/bfd/rif-record.js';
import { isSyntheticBene, tagSynthetic } from '../../fhir/bfd/claim-source.js';
import { RIF_COLUMNS } from './columns.js';
import { beneficiaryFacts, errorMessage, storeResources, type RifContext, type Storable } from './context.js';
import { DML_COLUMN } from './header.js';
import { NO_LOOKUPS } from '../../fhir/bfd/lookups.js';
import { refuseRecord, type RifBatch, type RifRecord } from './records.js';

type HistoryType = 'beneficiary-history' | 'mbi-history';

/** A history row to add: whose, which kind, its key, the row. */
interface NewHistory {
  beneId: string;
  type: HistoryType;
  key: string;
  row: RifRow;
}

/** The columns BFD compares to tell whether an UPDATE changed a beneficiary's identity. */
const IDENTITY = ['MBI_NUM', 'BENE_CRNT_HIC_NUM', 'EFCTV_BGN_DT', 'BENE_BIRTH_DT', 'BENE_SEX_IDENT_CD'];
/** What BFD keeps of a replaced identity (the other history columns stay empty). */
const KEPT = new Set([
  'BENE_ID',
  'BENE_BIRTH_DT',
  'BENE_SEX_IDENT_CD',
  'BENE_CRNT_HIC_NUM',
  'MBI_NUM',
  'EFCTV_BGN_DT',
  'EFCTV_END_DT',
]);
const HISTORY_COLUMNS = RIF_COLUMNS['beneficiary-history'].map((c) => c.name);

/** How many ids one read names. */
const CHUNK = 500;

/** The row as kept: every column but the DML indicator. */
function kept(row: RifRow): RifRow {
  const out: Record<string, string> = {};
  for (const [column, value] of Object.entries(row)) if (column !== DML_COLUMN) out[column] = value;
  return out;
}

/** A column's value for comparison: a date as the day it names, anything else as written. */
function comparable(column: string, value: string | undefined): string {
  const text = value ?? '';
  return column.endsWith('_DT') ? (rifDate(text) ?? text) : text;
}

function identityChanged(before: RifRow, after: RifRow): boolean {
  return IDENTITY.some((c) => comparable(c, before[c]) !== comparable(c, after[c]));
}

/** The beneficiary history row BFD keeps of an identity an UPDATE replaced. */
function replacedIdentity(before: RifRow): RifRow {
  const row: Record<string, string> = {};
  for (const column of HISTORY_COLUMNS) row[column] = KEPT.has(column) ? (before[column] ?? '') : '';
  return row;
}

/** The key of a history row: the MBI history's own id, else a digest of the row (a repeat is one row). */
function historyKey(type: HistoryType, row: RifRow): string {
  if (type === 'mbi-history') return row.BENE_MBI_ID!;
  return createHash('sha256').update(JSON.stringify(row)).digest('base64url');
}

/** The stored rows of `ids`. */
async function storedBeneficiaries(context: RifContext, ids: string[]): Promise<Map<string, RifRow>> {
  const found = new Map<string, RifRow>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await context.trx
      .selectFrom('rif_beneficiaries')
      .select(['bene_id', 'row'])
      .where('bene_id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) found.set(r.bene_id, JSON.parse(r.row) as RifRow);
  }
  return found;
}

/** The stored history rows of `ids`, in load order. */
async function storedHistory(context: RifContext, ids: string[]): Promise<Map<string, RifRow[]>> {
  const found = new Map<string, RifRow[]>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await context.trx
      .selectFrom('rif_beneficiary_history')
      .select(['bene_id', 'row'])
      .where('bene_id', 'in', ids.slice(i, i + CHUNK))
      .orderBy('seq')
      .execute();
    for (const r of rows) {
      let list = found.get(r.bene_id);
      if (!list) found.set(r.bene_id, (list = []));
      list.push(JSON.parse(r.row) as RifRow);
    }
  }
  return found;
}

/** Which of `keys` (of one history type) are stored. */
async function storedHistoryKeys(
  context: RifContext,
  type: HistoryType,
  keys: string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += CHUNK) {
    const rows = await context.trx
      .selectFrom('rif_beneficiary_history')
      .select('row_key')
      .where('record_type', '=', type)
      .where('row_key', 'in', keys.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) found.add(r.row_key);
  }
  return found;
}

/** A beneficiary to build again: its row, the history rows this batch adds, the lines that changed it. */
interface Changed {
  row: RifRow;
  added: NewHistory[];
  records: RifRecord[];
}

/** Stores a batch of a beneficiary, beneficiary history or MBI history file. */
export async function storeBeneficiaryBatch(context: RifContext, batch: RifBatch): Promise<void> {
  if (batch.type === 'beneficiary') return storeBeneficiaries(context, batch);
  return storeHistory(context, batch, batch.type as HistoryType);
}

async function storeBeneficiaries(context: RifContext, batch: RifBatch): Promise<void> {
  const { load } = context;
  const ids = [...new Set(batch.records.map((r) => r.beneId))];
  const state = await storedBeneficiaries(context, ids);
  const changed = new Map<string, Changed>();
  for (const record of batch.records) {
    const id = record.beneId;
    const row = kept(record.rows[0]!);
    const before = state.get(id);
    if (record.action === 'INSERT' && before) {
      load.skipped();
      continue;
    }
    if (record.action === 'UPDATE' && !before) {
      const reason =
        `UPDATE of beneficiary ${id}, which is not stored (BFD's pipeline stops here): ` +
        'load its INSERT first';
      refuseRecord(load, batch.file, 'beneficiary', record, new Map([[record.lines[0]!, reason]]));
      continue;
    }
    let entry = changed.get(id);
    if (!entry) changed.set(id, (entry = { row, added: [], records: [] }));
    if (before && identityChanged(before, row)) {
      const history = replacedIdentity(before);
      entry.added.push({
        beneId: id,
        type: 'beneficiary-history',
        key: historyKey('beneficiary-history', history),
        row: history,
      });
    }
    entry.row = row;
    entry.records.push(record);
    state.set(id, row);
  }
  const built = await rebuild(context, batch, changed);
  if (built.length === 0) return;
  const rows = built.map((id) => ({
    bene_id: id,
    row: JSON.stringify(changed.get(id)!.row),
    loaded_at: context.now,
  }));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await context.trx
      .insertInto('rif_beneficiaries')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc
          .column('bene_id')
          .doUpdateSet((eb) => ({ row: eb.ref('excluded.row'), loaded_at: eb.ref('excluded.loaded_at') })),
      )
      .execute();
  }
  await insertHistory(
    context,
    built.flatMap((id) => changed.get(id)!.added),
  );
}

async function storeHistory(context: RifContext, batch: RifBatch, type: HistoryType): Promise<void> {
  const { load } = context;
  const candidates: { record: RifRecord; added: NewHistory }[] = [];
  for (const record of batch.records) {
    if (record.beneId === '') {
      // An MBI with no beneficiary to attach it to: BFD keeps it, but nothing here can use it.
      load.skipped();
      continue;
    }
    const row = kept(record.rows[0]!);
    const added = { beneId: record.beneId, type, key: historyKey(type, row), row };
    candidates.push({ record, added });
  }
  const stored = await storedHistoryKeys(
    context,
    type,
    candidates.map((c) => c.added.key),
  );
  const fresh: { record: RifRecord; added: NewHistory }[] = [];
  for (const candidate of candidates) {
    if (stored.has(candidate.added.key)) {
      load.skipped();
      continue;
    }
    stored.add(candidate.added.key);
    fresh.push(candidate);
  }
  const beneficiaries = await storedBeneficiaries(context, [...new Set(fresh.map((c) => c.added.beneId))]);
  const changed = new Map<string, Changed>();
  for (const { record, added } of fresh) {
    const row = beneficiaries.get(added.beneId);
    if (!row) continue;
    let entry = changed.get(added.beneId);
    if (!entry) changed.set(added.beneId, (entry = { row, added: [], records: [] }));
    entry.added.push(added);
    entry.records.push(record);
  }
  const built = new Set(await rebuild(context, batch, changed));
  // History of beneficiaries not stored yet is kept for when they arrive.
  await insertHistory(
    context,
    fresh.map((c) => c.added).filter((a) => !changed.has(a.beneId) || built.has(a.beneId)),
  );
}

async function insertHistory(context: RifContext, added: NewHistory[]): Promise<void> {
  const rows = [];
  for (const a of added) {
    rows.push({
      record_type: a.type,
      row_key: a.key,
      bene_id: a.beneId,
      seq: await context.nextSeq(),
      row: JSON.stringify(a.row),
      loaded_at: context.now,
    });
  }
  for (let i = 0; i < rows.length; i += CHUNK) {
    await context.trx
      .insertInto('rif_beneficiary_history')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/**
 * Builds and stores the Patient and Coverages of each changed beneficiary from its row and its whole
 * history (stored, then what this batch adds); returns the ids built. A beneficiary whose resources
 * cannot be built is refused at the lines that changed it, and nothing of them is stored.
 */
async function rebuild(
  context: RifContext,
  batch: RifBatch,
  changed: Map<string, Changed>,
): Promise<string[]> {
  if (changed.size === 0) return [];
  const history = await storedHistory(context, [...changed.keys()]);
  const items: Storable[] = [];
  const built: string[] = [];
  const transformContext = { lookups: NO_LOOKUPS, created: context.created };
  for (const [id, entry] of changed) {
    const record: RifBeneficiary = {
      row: entry.row,
      history: [...(history.get(id) ?? []), ...entry.added.map((a) => a.row)],
    };
    let resources;
    try {
      resources = [
        context.transforms.patientResource(record, transformContext),
        ...context.transforms.coverageResources(record, transformContext),
      ];
    } catch (error) {
      const reason = `no Patient or Coverage could be made of beneficiary ${id}: ${errorMessage(error)}`;
      for (const r of entry.records)
        refuseRecord(context.load, batch.file, batch.type, r, new Map([[r.lines[0]!, reason]]));
      continue;
    }
    for (const resource of resources) {
      if (isSyntheticBene(id)) tagSynthetic(resource);
      items.push({ facts: beneficiaryFacts(resource, id), resource });
    }
    built.push(id);
  }
  await storeResources(context, items);
  return built;
}
