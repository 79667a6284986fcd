import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ingestKind } from '../../src/ingest/kinds.js';
import type { IngestOptions, IngestSummary } from '../../src/ingest/engine/report.js';
import type { Storage } from '../../src/storage/connect.js';

/** `../shared/data` beside the checkout: real public files that stay where they are. */
export const sharedDataDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/data');

/** Absolute path of a file under `../shared/data`. */
export function sharedData(relative: string): string {
  return join(sharedDataDir, relative);
}

/**
 * `node:test` skip option for suites that read real files: a clear message when `../shared` is absent,
 * `false` (run) when the file is there.
 */
export function skipWithoutSharedData(...relatives: string[]): string | false {
  const missing = relatives.filter((r) => !existsSync(sharedData(r)));
  return missing.length === 0 ? false : `../shared/data is absent here (${missing.join(', ')})`;
}

/** Runs one ingest the way the CLI does, against a test storage. */
export async function ingest(
  storage: Storage,
  kind: string,
  files: string[],
  options: Partial<IngestOptions> = {},
): Promise<IngestSummary> {
  return ingestKind(kind, files, storage.db, { now: Date.now(), ...options });
}
