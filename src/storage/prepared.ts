import type { Compilable, CompiledQuery, QueryResult } from 'kysely';

const MARK = '\u0000param:';

/**
 * A query built and compiled once, then run many times with new values: for the statements on hot paths
 * (a refresh, a Bearer check), where building a query per request costs more than running it.
 *
 * `build` receives `param(name)`, which stands in for a value in the query (typed `never`, so it fits
 * wherever a value goes); every other value in the query stays as written. The SQL text is the same on every run, so
 * SQLite's statement cache (storage/connect.ts) prepares it only once.
 */
export function preparedQuery<Names extends string, Row>(
  db: { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> },
  build: (param: (name: Names) => never) => Compilable<Row>,
): (values: Record<Names, unknown>) => Promise<QueryResult<Row>> {
  const compiled = build((name) => `${MARK}${name}` as never).compile();
  const slots = compiled.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(MARK) ? (value.slice(MARK.length) as Names) : undefined,
  );
  return (values) =>
    db.executeQuery<Row>({
      ...compiled,
      parameters: compiled.parameters.map((value, i) => {
        const slot = slots[i];
        return slot === undefined ? value : values[slot];
      }),
    });
}
