import type { Transaction } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { Ownership } from './dataset-load.js';
import type { Write } from './writes.js';

/** A row the format refuses, with the reason a person can act on. */
export class Reject {
  constructor(readonly reason: string) {}
}

/** What a tabular format's `start` is given for one file. `S`: the state the files of one load share. */
export interface FormatContext<S = undefined> {
  /** The open transaction (lookups only; rows go through the returned writes). */
  db: Transaction<Database>;
  /** `--year`, when given. */
  year?: number;
  file: string;
  /** Keys already written by earlier rows or files of this load (to drop duplicates across files). */
  seen: Set<string>;
  /** The load's own state, made by the format's `startLoad` (undefined when it has none). */
  load: S;
}

/** How one file format's rows become rows of our tables. */
export interface RowHandler {
  /** The year the row belongs to (from its own column), when the format carries one. */
  yearOf?(cells: Record<string, string>): number | undefined;
  row(cells: Record<string, string>, year: number): Write[] | Reject | Promise<Write[] | Reject>;
  /** Rows that can only be written once every row was seen (aggregates). */
  finish?(): Write[] | Promise<Write[]>;
}

/**
 * A published file format read as one header-and-rows table per file (CSV, a ZIP holding one, or an
 * `.xlsx` workbook), and the tables it fills; `tabularKind` makes it an ingest kind. `S`: what the files of
 * one load share (`startLoad`).
 */
export interface TabularFormat<S = undefined> {
  kind: string;
  /** One line for `openenroll ingest --help`. */
  summary: string;
  owns: Ownership[];
  /**
   * Every column the row handlers read, when they read few of many (NPPES: 46 of 330): rows then carry only
   * these cells, and the reader splits no further into a line than it must. Absent: rows carry every cell.
   */
  columns?: readonly string[];
  /**
   * The URL of this format's module (`import.meta.url`), when its rows need nothing from the database and
   * nothing across files (`start` gets no `db`; `seen`, `load` and `finish` are the file's own): a CSV file
   * of it is then read and turned into writes in a worker thread, beside the load's own thread that stores
   * them.
   */
  threadModule?: string;
  /**
   * For files that open with title lines before their header (the CMS OPPS and ASC addenda): whether a
   * record (cells trimmed) is the header. The records before it are skipped. Absent: the first record.
   */
  isHeader?(cells: string[]): boolean;
  /** Names of the columns the file must have (matched after trimming); missing ones abort the load. */
  missingColumns(header: string[]): string[];
  /** Geography with a single vintage may be loaded without a year; everything else needs one. */
  yearOptional?: boolean;
  /** The year from the file's name, for formats without a year column (e.g. `2016_QHP_Landscape_…`). */
  yearFromFileName?(file: string): number | undefined;
  /**
   * The state one load keeps across its files (rows gathered for the end, what earlier files stored), made
   * once per load and handed to `start` of each file as `load`. `db`: the load's open transaction.
   */
  startLoad?(db: Transaction<Database>): S;
  start(context: FormatContext<S>): RowHandler | Promise<RowHandler>;
}

/** The columns of `required` that `header` lacks. */
export function missingFrom(header: string[], required: string[]): string[] {
  const present = new Set(header);
  return required.filter((name) => !present.has(name));
}

/** The columns of a published header that every file must have: all but `optional`, in header order. */
export function requiredColumns<C extends string>(header: readonly C[], optional: readonly C[]): C[] {
  return header.filter((column) => !optional.includes(column));
}

/**
 * A year written as four digits (NaN otherwise, which the engine refuses), or undefined when the cell is
 * empty: what a format's `yearOf` reads from its year column.
 */
export function yearCell(cells: Record<string, string>, column: string): number | undefined {
  const value = (cells[column] ?? '').trim();
  if (value === '') return undefined;
  return /^\d{4}$/.test(value) ? Number(value) : Number.NaN;
}
