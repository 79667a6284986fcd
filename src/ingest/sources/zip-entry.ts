import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** A ZIP archive that cannot be read: truncated, not a ZIP at all, or without the entry we need. */
export class ArchiveError extends Error {}

/**
 * Opens the first entry of a ZIP archive whose name matches `pattern` as a stream, without reading the
 * archive into memory (yauzl reads the central directory, then inflates one entry on demand).
 */
export function openZipEntry(
  file: string,
  pattern: RegExp,
): Promise<{ name: string; size: number; stream: Readable }> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error || !zip) {
        // The filesystem's refusal (no such file, permission denied) is not a damaged archive.
        if ((error as NodeJS.ErrnoException | null)?.syscall) reject(error);
        else reject(new ArchiveError(`not a readable ZIP archive (${error?.message ?? 'unknown error'})`));
        return;
      }
      let found = false;
      zip.on('error', (e: Error) => reject(new ArchiveError(`damaged ZIP archive (${e.message})`)));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (found || !pattern.test(entry.fileName)) {
          zip.readEntry();
          return;
        }
        found = true;
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) {
            reject(new ArchiveError(`cannot read ${entry.fileName} in the archive (${e?.message})`));
            return;
          }
          // After the entry is read to its end, or given up on early (destroyed).
          stream.on('close', () => zip.close());
          resolve({ name: entry.fileName, size: entry.uncompressedSize, stream });
        });
      });
      zip.on('end', () => {
        if (!found) reject(new ArchiveError(`the archive has no entry matching ${pattern}`));
      });
      zip.readEntry();
    });
  });
}
