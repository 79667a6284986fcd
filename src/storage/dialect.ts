/** What differs between the two databases, as flags the stores consult instead of sniffing the driver. */
export interface DialectCapabilities {
  readonly name: 'sqlite' | 'postgres';
  /** `insert … on conflict … do update` (both have it; kept for completeness of the capability set). */
  readonly upsert: boolean;
  /** `returning` on insert/update/delete. */
  readonly returning: boolean;
  /** Concurrent writers: PostgreSQL row locks; SQLite serializes writes through one connection. */
  readonly concurrentWriters: boolean;
}

export function capabilitiesOf(name: 'sqlite' | 'postgres'): DialectCapabilities {
  return { name, upsert: true, returning: true, concurrentWriters: name === 'postgres' };
}
