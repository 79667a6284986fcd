/**
 * An epoch-milliseconds column that may be null, as a number (bigint columns arrive as strings from some
 * drivers unless parsed; this keeps every store's reading of them the same).
 */
export function instant(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}
