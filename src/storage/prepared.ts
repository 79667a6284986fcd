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
/**
 * The SQL texts of the queries prepared with `named`, each with a statement name: on PostgreSQL connect.ts
 * sends them as named prepared statements, parsed and planned once per connection instead of on every run.
 */
const statementNames = new Map<string, string>();

/** The statement name of a prepared query's SQL text; undefined for any other text. */
export function statementName(sql: string): string | undefined {
  return statementNames.get(sql);
}

export interface PreparedOptions {
  /**
   * PostgreSQL: send it as a named statement. Only for queries that name their columns: PostgreSQL refuses
   * to run a statement prepared before a migration changed what its `select *` returns.
   */
  named?: boolean;
}

export function preparedQuery<Names extends string, Row>(
  db: { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> },
  build: (param: (name: Names) => never) => Compilable<Row>,
  options: PreparedOptions = {},
): (values: Record<Names, unknown>) => Promise<QueryResult<Row>> {
  const compiled = build((name) => `${MARK}${name}` as never).compile();
  if (options.named && !statementNames.has(compiled.sql)) {
    statementNames.set(compiled.sql, `oe_${statementNames.size + 1}`);
  }
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
