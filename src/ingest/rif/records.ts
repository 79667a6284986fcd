/**
 * A RIF file read as records, in batches: its header names the record type; each line is checked (cells,
 * values, the DML indicator) and the lines of a claim are gathered by `CLM_ID` (docs/claims-rif.md#rif). A
 * line that fails a check is refused as `file:line` with the column and the reason, and so are the other
 * lines of its claim (a claim is stored whole or not at all). What a record does to the stored data
 * (insert, update, nothing) is decided when its batch is stored, against what is stored by then.
 */
import { RIF_CLAIM_TYPES, type RifRecordType, type RifRow } from '../../fhir/bfd/rif-record.js';
import type { KindLoad } from '../engine/kind.js';
import { IngestError } from '../engine/report.js';
import { CellError, splitCells } from './cells.js';
import { RIF_COLUMNS } from './columns.js';
import { DML_COLUMN, recogniseHeader } from './header.js';
import { readLineChunks } from './lines.js';
import { valueCheck } from './values.js';

/** What a record asks for: BFD's pipeline loads INSERT and UPDATE records only. */
export type RifAction = 'INSERT' | 'UPDATE';

/** One record: a claim (its lines), a Part D event, a beneficiary or one history row. */
export interface RifRecord {
  readonly action: RifAction;
  /** The record's own id: `CLM_ID`, `PDE_ID`, `BENE_ID` or `BENE_MBI_ID` ('' for beneficiary history). */
  readonly key: string;
  /** `BENE_ID` ('' when an MBI history row has none). */
  readonly beneId: string;
  readonly rows: readonly RifRow[];
  /** Each row's cells, in the order of the batch's `columns`. */
  readonly cells: readonly (readonly string[])[];
  /** The 1-based line of each row. */
  readonly lines: readonly number[];
}

/** Consecutive records of one file. */
export interface RifBatch {
  readonly type: RifRecordType;
  readonly file: string;
  /** The column names of the file's header, upper case. */
  readonly columns: readonly string[];
  readonly records: RifRecord[];
  /** Lines in the batch's records. */
  readonly lineCount: number;
}

/** The column holding each record type's own id (claim lines are grouped on it). */
export const KEY_COLUMN: Readonly<Record<RifRecordType, string | undefined>> = {
  beneficiary: 'BENE_ID',
  'beneficiary-history': undefined,
  'mbi-history': 'BENE_MBI_ID',
  carrier: 'CLM_ID',
  dme: 'CLM_ID',
  hha: 'CLM_ID',
  hospice: 'CLM_ID',
  inpatient: 'CLM_ID',
  outpatient: 'CLM_ID',
  snf: 'CLM_ID',
  pde: 'PDE_ID',
};

/** Record types whose records span several lines (one per claim line): the claims but Part D events. */
const GROUPED = new Set<RifRecordType>(RIF_CLAIM_TYPES.filter((type) => type !== 'pde'));

/**
 * A batch is stored once it holds this many records or lines: small enough that what a batch keeps alive
 * (its rows, the resources made of them, their JSON) stays young for the garbage collector; a batch of 500
 * claims doubled the load's peak memory for no speed.
 */
const BATCH_RECORDS = 100;
const BATCH_LINES = 500;

/**
 * Refuses a record: each line of `reasons` for its reason, the record's other lines (of a claim) because
 * the claim is stored whole or not at all.
 */
export function refuseRecord(
  load: Pick<KindLoad, 'reject'>,
  file: string,
  type: RifRecordType,
  record: Pick<RifRecord, 'key' | 'lines'>,
  reasons: ReadonlyMap<number, string>,
): void {
  const [first] = reasons.keys();
  const { lines } = record;
  const span = lines.length > 1 ? `lines ${lines[0]}-${lines.at(-1)}` : `line ${lines[0]}`;
  for (const line of lines) {
    load.reject(
      file,
      line,
      reasons.get(line) ??
        `${KEY_COLUMN[type]} ${record.key} (${span}) is not stored: line ${first} is refused`,
    );
  }
}

/** The message of a file whose header names no record type. */
function unknownHeader(file: string, header: readonly string[]): string {
  const shown = header.slice(0, 4).join('|');
  return (
    `${file}: not a RIF file: its header (${shown}${header.length > 4 ? '|…' : ''}) names no RIF record ` +
    'type (beneficiary, beneficiary history, MBI history, carrier, DME, HHA, hospice, inpatient, ' +
    'outpatient, SNF or Part D event); nothing was stored'
  );
}

/** A claim (or other record) being gathered from consecutive lines. */
interface Pending {
  key: string;
  beneId: string;
  action: string;
  rows: RifRow[];
  cells: string[][];
  lines: number[];
  /** Reasons of refused lines, by line. */
  refused: Map<number, string> | undefined;
  /** The line where this key was first read, when this is a repeat of an earlier record. */
  repeatOf: number | undefined;
}

/**
 * Reads `file` as RIF records, batch by batch. Throws an IngestError for a file that is no RIF file of a
 * known type or lacks columns of its type; refuses lines through `load.reject`.
 */
export async function* readRifBatches(file: string, load: KindLoad): AsyncGenerator<RifBatch> {
  let header: string[] | undefined;
  let type: RifRecordType | undefined;
  let names: string[] = [];
  let keyAt = -1;
  let beneAt = -1;
  let dmlAt = -1;
  let check: (cells: readonly string[]) => string | undefined = () => undefined;
  let makeRow: (cells: readonly string[]) => RifRow = () => ({});
  const grouped = () => GROUPED.has(type!);
  /** Where each key was first read in this file (claims and Part D events must not repeat). */
  const seen = new Map<string, number>();
  let records: RifRecord[] = [];
  let lineCount = 0;
  let pending: Pending | undefined;
  let dataLines = 0;

  const keyName = () => KEY_COLUMN[type!] ?? 'key';

  /** Ends the record being gathered: refused whole, or added to the batch. */
  const settle = (record: Pending) => {
    if (record.repeatOf !== undefined) {
      const reason =
        type === 'pde'
          ? `PDE_ID ${record.key} was read before, at line ${record.repeatOf} (a Part D event is one line)`
          : `${keyName()} ${record.key} was read before, at line ${record.repeatOf}: a claim's lines must be ` +
            'consecutive';
      for (const line of record.lines) load.reject(file, line, record.refused?.get(line) ?? reason);
      return;
    }
    if (record.refused) return refuseRecord(load, file, type!, record, record.refused);
    records.push({
      action: record.action as RifAction,
      key: record.key,
      beneId: record.beneId,
      rows: record.rows,
      cells: record.cells,
      lines: record.lines,
    });
    lineCount += record.lines.length;
  };

  const refuse = (record: Pending, line: number, reason: string) => {
    (record.refused ??= new Map()).set(line, reason);
  };

  /** Adds one line's cells to the record it belongs to (a new one unless it continues a claim). */
  const take = (line: number, cells: string[], broken: string | undefined) => {
    const key = keyAt >= 0 ? (cells[keyAt] ?? '') : '';
    if (pending && !(grouped() && key === pending.key && key !== '')) {
      settle(pending);
      pending = undefined;
    }
    const beneId = beneAt >= 0 ? (cells[beneAt] ?? '') : '';
    const action = dmlAt >= 0 ? (cells[dmlAt] ?? '') : 'INSERT';
    if (!pending) {
      let repeatOf: number | undefined;
      if ((grouped() || type === 'pde') && key !== '') {
        repeatOf = seen.get(key);
        if (repeatOf === undefined) seen.set(key, line);
      }
      pending = { key, beneId, action, rows: [], cells: [], lines: [], refused: undefined, repeatOf };
    }
    const record = pending;
    record.lines.push(line);
    if (broken !== undefined) return refuse(record, line, broken);
    record.rows.push(makeRow(cells));
    record.cells.push(cells);
    const wrong = check(cells);
    if (wrong !== undefined) return refuse(record, line, wrong);
    if (action !== 'INSERT' && action !== 'UPDATE') {
      return refuse(
        record,
        line,
        action === 'DELETE'
          ? `${DML_COLUMN} DELETE: BFD's pipeline loads INSERT and UPDATE records only; nothing is deleted`
          : `${DML_COLUMN} ${JSON.stringify(action)} is not INSERT or UPDATE`,
      );
    }
    const first = record.lines[0]!;
    if (line !== first) {
      if (action !== record.action)
        return refuse(record, line, `${DML_COLUMN} ${action} differs from line ${first}'s ${record.action}`);
      if (beneId !== record.beneId)
        return refuse(record, line, `BENE_ID ${beneId} differs from line ${first}'s ${record.beneId}`);
    }
  };

  for await (const { first, texts } of readLineChunks(file, load.progress)) {
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      const line = first + i;
      if (text === '') continue;
      if (!header) {
        ({ header, type, names, keyAt, beneAt, dmlAt, check, makeRow } = openHeader(file, text));
        continue;
      }
      load.read();
      dataLines += 1;
      let cells: string[];
      let broken: string | undefined;
      try {
        cells = splitCells(text);
      } catch (error) {
        if (!(error instanceof CellError)) throw error;
        cells = text.split('|');
        broken = error.message;
      }
      if (broken === undefined && cells.length < names.length) {
        broken = `the line has ${cells.length} cells, the header ${names.length}`;
      }
      take(line, cells, broken);
      if (records.length >= BATCH_RECORDS || lineCount >= BATCH_LINES) {
        yield { type: type!, file, columns: names, records, lineCount };
        records = [];
        lineCount = 0;
      }
    }
  }
  if (dataLines === 0) throw load.failure(`no data rows in ${file}; nothing was stored`);
  if (pending) settle(pending);
  if (records.length > 0) yield { type: type!, file, columns: names, records, lineCount };
}

/** What the header line of `file` says: the record type, column names and positions, the value check. */
function openHeader(file: string, text: string) {
  let header: string[];
  try {
    header = splitCells(text);
  } catch (error) {
    if (error instanceof CellError)
      throw new IngestError(`${file}: the header line: ${error.message}; nothing was stored`);
    throw error;
  }
  const names = header.map((h) => h.trim().toUpperCase());
  const match = recogniseHeader(names);
  if (match.type === undefined) throw new IngestError(unknownHeader(file, names));
  const type = match.type;
  const missing = [...match.missing];
  if (type !== 'mbi-history' && !names.includes(DML_COLUMN)) missing.unshift(DML_COLUMN);
  if (missing.length > 0) {
    throw new IngestError(
      `${file}: not a ${type} RIF file: missing column${missing.length > 1 ? 's' : ''} ` +
        `${missing.map((m) => `"${m}"`).join(', ')}; nothing was stored`,
    );
  }
  const positions = new Map<string, number>();
  names.forEach((name, i) => {
    if (!positions.has(name)) positions.set(name, i);
  });
  const key = KEY_COLUMN[type];
  return {
    header,
    type,
    names,
    keyAt: key === undefined ? -1 : positions.get(key)!,
    beneAt: positions.get('BENE_ID') ?? -1,
    dmlAt: positions.get(DML_COLUMN) ?? -1,
    check: valueCheck(RIF_COLUMNS[type], positions),
    makeRow: rowMaker(names),
  };
}

/**
 * A function making a line's row (column → cell) for a header's `names`: an object literal compiled once
 * per header, in which each name is a JSON string literal (no header text becomes code). V8 makes such
 * literals with one fixed shape, eight times as fast as setting 100-odd keys one by one, which was a
 * sixth of a load's time. A name the header repeats takes its last cell, as setting the keys in order did.
 */
function rowMaker(names: readonly string[]): (cells: readonly string[]) => RifRow {
  const properties = names.map((name, i) => `${JSON.stringify(name)}: c[${i}]`).join(',\n');
  return new Function('c', `return {\n${properties}\n};`) as (cells: readonly string[]) => RifRow;
}
