/** What differs between the two databases, as flags the stores consult instead of sniffing the driver. */
export interface DialectCapabilities {
  readonly name: 'sqlite' | 'postgres';
  /**
   * `select … for update` row locks. PostgreSQL needs them to order concurrent writers on one row; SQLite
   * has no such clause and needs none: every transaction takes the database's write lock when it begins.
   */
  readonly rowLocks: boolean;
  /**
   * Data-modifying statements inside `with` (PostgreSQL): several writes in one statement, one round trip.
   * SQLite's `with` holds only queries.
   */
  readonly writableCtes: boolean;
}

export function capabilitiesOf(name: 'sqlite' | 'postgres'): DialectCapabilities {
  return { name, rowLocks: name === 'postgres', writableCtes: name === 'postgres' };
}
