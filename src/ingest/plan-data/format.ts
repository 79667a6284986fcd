import type { Transaction } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { Ownership, Write } from '../../plans/store/datasets.js';

/** A row the format refuses, with the reason a person can act on. */
export class Reject {
  constructor(readonly reason: string) {}
}

export interface FormatContext {
  /** The open transaction (lookups only; rows go through the returned writes). */
  db: Transaction<Database>;
  /** `--year`, when given. */
  year?: number;
  file: string;
  /** Keys already written by earlier rows or files of this load (to drop duplicates across files). */
  seen: Set<string>;
}

/** How one file format's rows become rows of our tables. */
export interface RowHandler {
  /** The year the row belongs to (from its own column), when the format carries one. */
  yearOf?(cells: Record<string, string>): number | undefined;
  row(cells: Record<string, string>, year: number): Write[] | Reject | Promise<Write[] | Reject>;
  /** Rows that can only be written once every row was seen (aggregates). */
  finish?(): Write[] | Promise<Write[]>;
}

/** One ingest kind: a published file format and the tables it fills. */
export interface IngestFormat {
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
   * nothing across files (`start` gets no `db`; `seen` and `finish` are the file's own): a CSV file of it is
   * then read and turned into writes in a worker thread, beside the load's own thread that stores them.
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
  start(context: FormatContext): RowHandler | Promise<RowHandler>;
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
