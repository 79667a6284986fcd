/**
 * A set of 10-digit NPIs held as numbers in one typed array (open addressing, linear probing). A load
 * remembers every provider it wrote to find the ones an issuer lists twice; a million NPIs take 16 MB
 * here, where a `Set` of their strings takes about 80 MB.
 */
export interface NpiSet {
  /** Adds `npi` (10 digits); true when it was not in the set yet. */
  add(npi: string): boolean;
  readonly size: number;
}

const EMPTY = 0;

export function createNpiSet(): NpiSet {
  // Each slot holds NPI + 1, so that 0 marks an empty slot (0000000000 is 10 digits too).
  let slots = new Float64Array(1024);
  let size = 0;
  const slotOf = (table: Float64Array, value: number) => {
    const mask = table.length - 1;
    const low = value % 0x1_0000_0000;
    const high = (value - low) / 0x1_0000_0000;
    let i = (Math.imul(low ^ Math.imul(high, 0x85eb_ca6b), 0x9e37_79b1) >>> 0) & mask;
    while (table[i] !== EMPTY && table[i] !== value) i = (i + 1) & mask;
    return i;
  };
  const grow = () => {
    const old = slots;
    slots = new Float64Array(old.length * 2);
    for (const value of old) if (value !== EMPTY) slots[slotOf(slots, value)] = value;
  };
  return {
    add(npi) {
      const value = Number(npi) + 1;
      const i = slotOf(slots, value);
      if (slots[i] === value) return false;
      slots[i] = value;
      size += 1;
      // At most three quarters full: probes stay short.
      if (size * 4 > slots.length * 3) grow();
      return true;
    },
    get size() {
      return size;
    },
  };
}
