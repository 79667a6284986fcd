import { loadConfig, type Config } from '../config.js';
import { connect, migrate, type Storage } from '../storage/connect.js';

/**
 * Config plus a migrated storage, for commands that work on the database without serving HTTP. On SQLite
 * one writer at a time holds the database (an ingest holds it for its whole load): a command that waited
 * out the busy timeout says so instead of failing with the driver's error.
 */
export async function withStorage<T>(work: (storage: Storage, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const storage = await connect(config.databaseUrl);
  try {
    await migrate(storage);
    return await work(storage, config);
  } catch (error) {
    if (isDatabaseBusy(error)) throw new CommandError(DATABASE_BUSY);
    throw error;
  } finally {
    await storage.close();
  }
}

const DATABASE_BUSY =
  'the database is busy (an ingest or another writer holds it); try again when it finishes';

/** SQLite's `SQLITE_BUSY` (and its extended codes), possibly wrapped as an error's cause. */
export function isDatabaseBusy(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (/^SQLITE_BUSY/.test(String((e as NodeJS.ErrnoException).code))) return true;
  }
  return false;
}

/** Prints a table of rows with aligned columns. */
export function printTable(rows: Record<string, string>[]): void {
  if (rows.length === 0) {
    console.log('(none)');
    return;
  }
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(line(columns.map((c) => c.toUpperCase())));
  for (const row of rows) console.log(line(columns.map((c) => row[c] ?? '')));
}

/** A user-facing failure: printed without a stack, exit code 1. */
export class CommandError extends Error {}

/** An option that must be a whole number in [min, max]; undefined when the option was not given. */
export function wholeNumberOption(
  option: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new CommandError(`${option} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return n;
}
