/** What differs between the two databases, as flags the stores consult instead of sniffing the driver. */
export interface DialectCapabilities {
  readonly name: 'sqlite' | 'postgres';
  /**
   * `select … for update` row locks. PostgreSQL needs them to order concurrent writers on one row; SQLite
   * has no such clause and needs none: every transaction takes the database's write lock when it begins.
   */
  readonly rowLocks: boolean;
  /**
   * The functions migrations create in PL/pgSQL (PostgreSQL): several statements, each with its own
   * snapshot, in one round trip.
   */
  readonly serverFunctions: boolean;
  /**
   * Reads by id and refresh rotations made at the same time go out as one statement
   * (storage/batched-statements.ts). PostgreSQL is across a connection where every statement is a round
   * trip; SQLite runs statements in this process, where one more costs no more than one more row.
   */
  readonly batchedStatements: boolean;
  /**
   * `fhir_patient_counts`, each patient's number of resources by type, kept by triggers (PostgreSQL,
   * migration 0018): a search's first and `startIndex` pages read their total there instead of counting.
   */
  readonly patientCounts: boolean;
}

export function capabilitiesOf(name: 'sqlite' | 'postgres'): DialectCapabilities {
  const postgres = name === 'postgres';
  return {
    name,
    rowLocks: postgres,
    serverFunctions: postgres,
    batchedStatements: postgres,
    patientCounts: postgres,
  };
}
