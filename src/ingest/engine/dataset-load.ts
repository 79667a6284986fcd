import { CompiledQuery, PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { PlanDataTable, Write } from './writes.js';

/**
 * What a dataset owns in a table, deleted when a load first sees a year: every row of the year (`year`),
 * rows of the year written by this kind (`source`, for tables two kinds share), or the whole table (`all`,
 * for geography with one vintage). `none`: the load deletes nothing itself; the format replaces its own
 * part of the year through the transaction (the QHP Landscape, published one file per state, replaces
 * the states it loads and keeps the others), and the year's dataset row keeps the files loaded before.
 */
export interface Ownership {
  table: PlanDataTable;
  scope: 'year' | 'source' | 'all' | 'none';
}

/** Adds rows of one dataset load; rows are buffered and inserted in multi-row batches. */
export interface DatasetWriter {
  /** The open transaction, for lookups a format needs (e.g. county names → FIPS). */
  readonly db: Transaction<Database>;
  /** Deletes what the dataset owns for `year` (once per year per load) so the load replaces it. */
  startYear(year: number): Promise<void>;
  add(row: Write): Promise<void>;
  /**
   * Adds rows given as their values one after another in the order of `columns` (rows read in a worker
   * thread arrive so: flat arrays cross threads at a fraction of the cost of objects).
   */
  addRows(table: PlanDataTable, columns: readonly string[], values: unknown[]): Promise<void>;
  /** Writes the rows buffered so far (before a statement of the format reads them back). */
  flush(): Promise<void>;
}

// PostgreSQL allows 65,535 bound parameters per statement and SQLite 32,766: stay well under both.
const MAX_PARAMETERS = 16000;
const MAX_BATCH = 500;

export interface LoadOptions {
  kind: string;
  owns: Ownership[];
  sample: boolean;
  source: string;
  now: number;
  /** A row whose key is already written is dropped instead of failing the load (files that repeat rows). */
  ignoreDuplicates?: boolean;
}

/**
 * The text of one multi-row insert, written out directly: a load inserts millions of rows, and building
 * each batch as a query tree and compiling it cost as much as the database's own work. Placeholders are
 * `?` for SQLite, `$n` for PostgreSQL.
 */
function insertText(
  table: string,
  columns: readonly string[],
  rows: number,
  numbered: boolean,
  ignoreDuplicates: boolean,
): string {
  const tuples: string[] = [];
  for (let p = 0, row = 0; row < rows; row++) {
    const marks: string[] = [];
    for (let c = 0; c < columns.length; c++) marks.push(numbered ? `$${++p}` : '?');
    tuples.push(`(${marks.join(',')})`);
  }
  const names = columns.map((c) => `"${c}"`).join(',');
  const conflict = ignoreDuplicates ? ' on conflict do nothing' : '';
  return `insert into "${table}" (${names}) values ${tuples.join(',')}${conflict}`;
}

/** How many rows of `columns` columns one insert statement takes. */
const rowsPerStatement = (columns: number) => Math.min(MAX_BATCH, Math.floor(MAX_PARAMETERS / columns));

/** The file names of two `source` lists (", "-separated), each once, in name order. */
function mergeSources(earlier: string, added: string): string {
  const names = new Set([...earlier.split(', '), ...added.split(', ')].filter((n) => n !== ''));
  return [...names].sort().join(', ');
}

/**
 * Replaces a dataset in one transaction: `work` adds rows through the writer; if it throws, nothing
 * changed. Returns the years loaded with their row counts.
 */
export async function loadDataset(
  db: Kysely<Database>,
  options: LoadOptions,
  work: (writer: DatasetWriter) => Promise<void>,
): Promise<Map<number, number>> {
  // Wall time, not `options.now` (a test clock may stand still): the load's own duration.
  const started = performance.now();
  const numbered = db.getExecutor().adapter instanceof PostgresAdapter;
  return db.transaction().execute(async (trx) => {
    const counts = new Map<number, number>();
    const buffers = new Map<PlanDataTable, Record<string, unknown>[]>();
    const ignoreDuplicates = options.ignoreDuplicates ?? false;
    // Insert texts by table, columns and row count: most batches are full, so a load writes a handful
    // of texts, and the same text object finds its prepared statement at once.
    const texts = new Map<string, string>();
    /** Inserts rows given as their values one after another, in the order of `columns`. */
    const insert = async (table: PlanDataTable, columns: readonly string[], parameters: unknown[]) => {
      const rows = parameters.length / columns.length;
      const key = `${table} ${rows} ${columns.join(',')}`;
      let text = texts.get(key);
      if (text === undefined)
        texts.set(key, (text = insertText(table, columns, rows, numbered, ignoreDuplicates)));
      await trx.executeQuery(CompiledQuery.raw(text, parameters));
    };
    const flush = async (table: PlanDataTable) => {
      const rows = buffers.get(table);
      if (!rows || rows.length === 0) return;
      buffers.set(table, []);
      // Every row of a table has the same columns (the format's `write` of that table): the first names them.
      const columns = Object.keys(rows[0]!);
      const parameters: unknown[] = [];
      for (const row of rows) {
        for (const column of columns) {
          const value = row[column];
          parameters.push(value === undefined ? null : value);
        }
      }
      await insert(table, columns, parameters);
    };
    /** Adds `rows` written rows to the count of their year (of every year begun, for tables without one). */
    const count = (rows: number, year: unknown) => {
      for (const [y, n] of counts) if (year === undefined || year === y) counts.set(y, n + rows);
    };
    let wiped = false;
    const writer: DatasetWriter = {
      db: trx,
      async startYear(year) {
        if (counts.has(year)) return;
        counts.set(year, 0);
        for (const { table, scope } of options.owns) {
          if (scope === 'none') continue;
          if (scope === 'all') {
            if (!wiped) await trx.deleteFrom(table).execute();
            continue;
          }
          let query = trx.deleteFrom(table).where('year' as never, '=', year as never);
          if (scope === 'source') query = query.where('source' as never, '=', options.kind as never);
          await query.execute();
        }
        wiped = true;
      },
      async add(row) {
        let rows = buffers.get(row.table);
        if (!rows) buffers.set(row.table, (rows = []));
        rows.push(row.values as Record<string, unknown>);
        count(1, (row.values as { year?: number }).year);
        if (rows.length >= rowsPerStatement(Object.keys(row.values).length)) await flush(row.table);
      },
      async addRows(table, columns, values) {
        await flush(table);
        const width = columns.length;
        const yearAt = columns.indexOf('year');
        if (yearAt === -1) count(values.length / width, undefined);
        else for (let i = yearAt; i < values.length; i += width) count(1, values[i]);
        const step = rowsPerStatement(width) * width;
        for (let start = 0; start < values.length; start += step) {
          const parameters =
            start === 0 && values.length <= step ? values : values.slice(start, start + step);
          await insert(table, columns, parameters);
        }
      },
      async flush() {
        for (const table of buffers.keys()) await flush(table);
      },
    };
    await work(writer);
    for (const table of buffers.keys()) await flush(table);
    const partial = options.owns.length > 0 && options.owns.every((o) => o.scope === 'none');
    const durationMs = Math.round(performance.now() - started);
    for (const [year, rows] of counts) {
      let source = options.source;
      if (partial) {
        const earlier = await trx
          .selectFrom('plan_datasets')
          .select('source')
          .where('kind', '=', options.kind)
          .where('year', '=', year)
          .executeTakeFirst();
        if (earlier) source = mergeSources(earlier.source, options.source);
      }
      await trx
        .insertInto('plan_datasets')
        .values({
          kind: options.kind,
          year,
          sample: options.sample ? 1 : 0,
          source,
          rows,
          loaded_at: options.now,
          duration_ms: durationMs,
        })
        .onConflict((oc) =>
          oc.columns(['kind', 'year']).doUpdateSet({
            sample: options.sample ? 1 : 0,
            source,
            rows,
            loaded_at: options.now,
            duration_ms: durationMs,
          }),
        )
        .execute();
    }
    return counts;
  });
}
