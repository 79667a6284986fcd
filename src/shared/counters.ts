/**
 * Fixed-window counters shared by every instance: in the database by default, in Redis when one is
 * configured. Used for login lock-outs now and API rate limits later.
 */
export interface Counters {
  /** Adds one to `key` and returns the count inside the current window of `windowSeconds`. */
  hit(key: string, windowSeconds: number, now: number): Promise<number>;
  /** The count inside the current window, without adding. */
  peek(key: string, now: number): Promise<number>;
  reset(key: string): Promise<void>;
}
