/** Mixes two 32-bit values into one well-spread 32-bit value (murmur3-style finaliser). */
function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A small seeded PRNG (mulberry32): the same seed always gives the same sequence. */
export class Random {
  private state: number;

  /** One stream per (seed, salt): each part of the market draws from its own, so adding a plan to one
   * issuer does not shift the numbers of every other. */
  constructor(seed: number, salt: string) {
    let h = mix(seed >>> 0, Math.floor(seed / 4294967296) >>> 0);
    for (let i = 0; i < salt.length; i++) h = mix(h, salt.charCodeAt(i));
    this.state = h;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}
