/** Mixes two 32-bit values into one well-spread 32-bit value (murmur3-style finaliser). */
function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A small seeded PRNG (mulberry32) for generated sample data: the same seed and salt always give the
 * same sequence. Not for secrets (those come from node:crypto).
 */
export class Random {
  private state: number;

  /**
   * One stream per (seed, salt): a seed (any safe integer; both 32-bit halves count) mixed with the
   * salt, a 32-bit number or each character of a string. Each part of the generated data draws from its
   * own stream, so adding to one part does not shift the numbers of every other.
   */
  constructor(seed: number, salt: number | string) {
    let h = mix(seed >>> 0, Math.floor(seed / 4294967296) >>> 0);
    if (typeof salt === 'number') h = mix(h, salt >>> 0);
    else for (let i = 0; i < salt.length; i++) h = mix(h, salt.charCodeAt(i));
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

  /** A key drawn with probability proportional to its weight. */
  weighted<T extends string>(weights: Readonly<Record<T, number>>): T {
    return this.choice(Object.entries(weights) as [T, number][]);
  }

  /**
   * A value drawn with probability proportional to its weight, from `[value, weight]` pairs taken in their
   * order (which an object's keys would not keep when they look like numbers).
   */
  choice<T>(choices: readonly (readonly [T, number])[]): T {
    let r = this.next() * choices.reduce((sum, [, w]) => sum + w, 0);
    for (const [value, w] of choices) {
      r -= w;
      if (r < 0) return value;
    }
    return choices[choices.length - 1]![0];
  }
}
