import type { DatasetWriter, Ownership } from './dataset-load.js';
import type { IngestError } from './report.js';

/** What a kind is handed while it loads: the open dataset writer and the load's report. */
export interface KindLoad {
  readonly writer: DatasetWriter;
  /** `--year`, when given. */
  readonly year?: number;
  /** Counts input records read (one unless told). */
  read(records?: number): void;
  /** Counts records accepted that wrote no row of their own (one unless told). */
  skipped(records?: number): void;
  /** Refuses one record (throws once a load has refused too many). */
  reject(file: string, line: number, reason: string): void;
  /** Bytes of the input consumed (for progress). */
  progress(bytes: number): void;
  /** Names the file being read, so a filesystem error names it. */
  reading(file: string): void;
  /** The error that stops the load with `message`, carrying what the load has read so far. */
  failure(message: string): IngestError;
}

/**
 * One ingest kind: a published file format, the tables it fills, and how it reads its files. The engine
 * (`runIngest`) runs every kind the same way: one transaction, refused records reported as file and line,
 * progress and a summary. A format read as one header-and-rows table per file becomes a kind through
 * `tabularKind`; the others (RxNorm's headerless RRF files, the issuers' JSON) read their files
 * themselves, streamed, and write through the load's writer.
 */
export interface IngestKind {
  kind: string;
  /** One line for `openenroll ingest --help`. */
  summary: string;
  owns: Ownership[];
  /** Rows repeated in the files (the same key twice) keep the first instead of failing the load. */
  ignoreDuplicates?: boolean;
  /** Bytes the load will read, for progress (defaults to the files' sizes). */
  size?(files: string[]): Promise<number>;
  load(files: string[], load: KindLoad): Promise<void>;
}
