import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { PlanDataTable } from '../../src/ingest/engine/writes.js';
import { IngestError, type IngestSummary } from '../../src/ingest/engine/report.js';
import { migrate, type Storage } from '../../src/storage/connect.js';
import { csvText } from './csv-fixture.js';
import { createTestDatabase, type TestDatabase } from './service.js';
import { ingest } from './shared-data.js';

/** Shared set-up of the ingest suites: an isolated migrated database and a temp dir for fixture files. */
export interface IngestSuite {
  readonly storage: Storage;
  /** Writes a CSV (header = the union of the rows' keys, in first-seen order) and returns its path. */
  csv(
    name: string,
    rows: Record<string, string>[],
    options?: { bom?: boolean; header?: readonly string[] },
  ): string;
  /** Writes text lines, each ended by `eol`, and returns the file's path. */
  lines(name: string, lines: string[], eol?: '\n' | '\r\n'): string;
  /** Writes raw text or bytes to the temp dir. */
  file(name: string, content: string | Buffer): string;
  count(table: PlanDataTable, year?: number): Promise<number>;
}

/** The suite's database and temp dir (named after `prefix`), opened before its tests and removed after. */
export function ingestSuite(prefix: string): IngestSuite {
  let database: TestDatabase;
  let storage: Storage | undefined;
  let dir = '';
  before(async () => {
    database = createTestDatabase();
    storage = await database.open();
    await migrate(storage);
    dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  });
  after(async () => {
    await storage?.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  const suite: IngestSuite = {
    get storage() {
      assert.ok(storage, 'the suite has not started');
      return storage;
    },
    csv(name, rows, options = {}) {
      return suite.file(name, csvText(rows, options));
    },
    lines(name, lines, eol = '\n') {
      return suite.file(name, lines.join(eol) + eol);
    },
    file(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    async count(table, year) {
      let query = suite.storage.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
      if (year !== undefined) query = query.where('year', '=', year);
      return Number((await query.executeTakeFirstOrThrow()).n);
    },
  };
  return suite;
}

/** The IngestError a load ends with (fails the test when it succeeds). */
export async function failedIngest(
  storage: Storage,
  kind: string,
  files: string[],
  options: { year?: number; allowRejects?: number } = {},
): Promise<IngestError> {
  try {
    await ingest(storage, kind, files, options);
  } catch (error) {
    assert.ok(error instanceof IngestError, `expected an IngestError, got ${String(error)}`);
    return error;
  }
  assert.fail(`the ${kind} load should have failed`);
}

/** The summary's rejected rows as `file-basename:line: reason`. */
export function rejectLines(summary: IngestSummary | undefined): string[] {
  return (summary?.rejected ?? []).map((r) => `${r.file.split('/').pop()}:${r.line}: ${r.reason}`);
}
