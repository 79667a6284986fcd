import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Command } from 'commander';
import { createBulkService } from '../plans/bulk/build.js';
import { BULK_DOCUMENTS } from '../plans/bulk/documents.js';
import { bulkDataYears } from '../plans/market-years.js';
import { createBulkDocumentStore } from '../plans/store/bulk-documents.js';
import { createBulkSourceStore } from '../plans/store/bulk-sources.js';
import { createDatasetStore } from '../storage/datasets.js';
import { CommandError, wholeNumberOption, withStorage } from './context.js';

/** `openenroll export bulk`: the `/data/*` documents as files, for an object store or a CDN. */
export function registerExportCommands(program: Command): void {
  const exporting = program.command('export').description('write data the service serves as files');
  exporting
    .command('bulk')
    .description(
      'write the bulk data documents (/api/v1/data/*) as <out>/<year>/<name>.json, with manifest.json ' +
        '(ETag, sizes) — upload the folder to any object store or CDN and set BULK_DATA_URL to its base URL',
    )
    .requiredOption('--out <dir>', 'directory to write into (created if missing)')
    .option('--year <year>', 'one market year (default: the served years, current and previous)')
    .option('--gzip', 'write <name>.json.gz (the stored gzip bytes) instead of plain JSON')
    .action(async (opts: { out: string; year?: string; gzip?: boolean }) => {
      const only = wholeNumberOption('--year', opts.year, 2013, 2100);
      await withStorage(async (storage) => {
        const now = Date.now();
        const datasets = await createDatasetStore(storage.db).listDatasets();
        const served = bulkDataYears(datasets, now);
        if (only !== undefined && !served.includes(only)) {
          throw new CommandError(`--year: bulk data is served for ${served[0]} and ${served[1]} only`);
        }
        const bulk = createBulkService({
          documents: createBulkDocumentStore(storage.db),
          sources: createBulkSourceStore(storage.db),
          now: () => now,
        });
        const manifest: Record<string, unknown>[] = [];
        for (const year of only === undefined ? served : [only]) {
          const dir = join(resolve(opts.out), String(year));
          await mkdir(dir, { recursive: true });
          for (const definition of BULK_DOCUMENTS) {
            const document = await bulk.current(definition, year, datasets);
            if (!document) {
              console.log(`${year} ${definition.name.padEnd(15)} no data (not written)`);
              continue;
            }
            const name = `${definition.name}.json${opts.gzip ? '.gz' : ''}`;
            const target = createWriteStream(join(dir, name));
            if (opts.gzip) await pipeline(Readable.from(bulk.gzipBytes(document)), target);
            else await pipeline(Readable.from(bulk.gzipBytes(document)), createGunzip(), target);
            manifest.push({
              path: `${year}/${name}`,
              etag: document.etag,
              bytes: document.bytes,
              gzip_bytes: document.gzipBytes,
              built_at: new Date(document.builtAt).toISOString(),
              sample: document.sample,
            });
            console.log(`${year} ${definition.name.padEnd(15)} ${join(String(year), name)}`);
          }
        }
        await writeFile(join(resolve(opts.out), 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      });
    });
}
