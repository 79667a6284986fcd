import { basename } from 'node:path';
import type { DatasetStore, DatasetWriter, Ownership } from '../plans/store/datasets.js';
import { sourceSize } from './sources/tabular.js';
import { fileErrorMessage } from './plan-data/run.js';
import { createLoadReport, IngestError, type IngestOptions, type IngestSummary } from './report.js';

/** What a streamed format is handed while it loads: the open dataset writer and the load's report. */
export interface StreamLoad {
  readonly writer: DatasetWriter;
  /** `--year`, when given. */
  readonly year?: number;
  /** Counts one input record read. */
  read(): void;
  /** Refuses one record (throws once a load has refused too many). */
  reject(file: string, line: number, reason: string): void;
  /** Bytes of the input consumed (for progress). */
  progress(bytes: number): void;
  /** Names the file being read, so a filesystem error names it. */
  reading(file: string): void;
}

/**
 * An ingest kind whose files are not one header-and-rows table (RxNorm's headerless RRF files, the
 * issuers' JSON): the format reads its files itself, streamed, and writes through the load's writer.
 */
export interface StreamFormat {
  kind: string;
  /** One line for `openenroll ingest --help`. */
  summary: string;
  owns: Ownership[];
  /** Rows repeated in the files (the same key twice) keep the first instead of failing the load. */
  ignoreDuplicates?: boolean;
  /** Bytes the load will read, for progress (defaults to the files' sizes). */
  size?(files: string[]): Promise<number>;
  load(files: string[], load: StreamLoad): Promise<void>;
}

/**
 * Runs a streamed format in one transaction, with the same guarantees as the tabular kinds: a file that
 * cannot be read or parsed, or more refused records than allowed, leaves the previous data as it was.
 */
export async function runStreamIngest(
  format: StreamFormat,
  files: string[],
  datasets: DatasetStore,
  options: IngestOptions,
): Promise<IngestSummary> {
  const { summary, reject, checkRejects, progress, stored } = createLoadReport(
    format.kind,
    files,
    options.allowRejects ?? 0,
    options.onProgress,
  );
  let current = files[0] ?? '';
  try {
    if (format.size) progress.expect(await format.size(files));
    else for (const file of files) progress.expect(await sourceSize((current = file)));
    const counts = await datasets.load(
      {
        kind: format.kind,
        owns: format.owns,
        sample: options.sample ?? false,
        source: files.map((f) => basename(f)).join(', '),
        now: options.now,
        ignoreDuplicates: format.ignoreDuplicates,
      },
      async (writer) => {
        await format.load(files, {
          writer,
          year: options.year,
          read: () => void (summary.read += 1),
          reject,
          progress: progress.advance,
          reading: (file) => void (current = file),
        });
        checkRejects();
      },
    );
    return stored(counts);
  } catch (error) {
    if (error instanceof IngestError) throw error;
    const unreadable = fileErrorMessage(error, current);
    if (unreadable) throw new IngestError(`${unreadable}; nothing was stored`, summary);
    throw error;
  }
}
