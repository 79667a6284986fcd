import { basename } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { sourceSize } from '../sources/tabular.js';
import { loadDataset } from './dataset-load.js';
import type { IngestKind } from './kind.js';
import { createLoadReport, IngestError, type IngestOptions, type IngestSummary } from './report.js';

/**
 * Streams `files` of one kind into its tables, replacing the dataset for each year seen, in one
 * transaction: a file that cannot be read or parsed, a missing column, or more refused records than
 * allowed leaves the previous data exactly as it was.
 */
export async function runIngest(
  kind: IngestKind,
  files: string[],
  db: Kysely<Database>,
  options: IngestOptions,
): Promise<IngestSummary> {
  const { summary, reject, checkRejects, progress, stored } = createLoadReport(
    kind.kind,
    files,
    options.allowRejects ?? 0,
    options.onProgress,
  );
  // The file being read, to name it when the filesystem refuses (a read error does not carry the path).
  let current = files[0] ?? '';
  try {
    if (kind.size) progress.expect(await kind.size(files));
    else for (const file of files) progress.expect(await sourceSize((current = file)));
    const counts = await loadDataset(
      db,
      {
        kind: kind.kind,
        owns: kind.owns,
        sample: options.sample ?? false,
        source: files.map((f) => basename(f)).join(', '),
        now: options.now,
        ignoreDuplicates: kind.ignoreDuplicates,
      },
      async (writer) => {
        await kind.load(files, {
          writer,
          year: options.year,
          read: (records = 1) => void (summary.read += records),
          skipped: (records = 1) => void (summary.skipped += records),
          reject,
          progress: progress.advance,
          reading: (file) => void (current = file),
          failure: (message) => new IngestError(message, summary),
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

/**
 * What the filesystem refused, naming the file (`file` is the one being read: an error of `read` carries
 * no path); undefined when `error` is not a filesystem error.
 */
export function fileErrorMessage(error: unknown, file: string): string | undefined {
  const { code, syscall, path } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string' || typeof syscall !== 'string') return undefined;
  const name = path ?? file;
  switch (code) {
    case 'ENOENT':
      return `no such file: ${name}`;
    case 'ENOTDIR':
      return `no such file: ${name} (a part of the path is not a directory)`;
    case 'EISDIR':
      return `${name} is a directory; give the data file in it`;
    case 'EACCES':
    case 'EPERM':
      return `cannot read ${name}: permission denied`;
    default:
      return `cannot read ${name} (${(error as Error).message})`;
  }
}
