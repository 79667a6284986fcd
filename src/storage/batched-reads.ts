/**
 * Reads by key that arrive while others are on their way to the database go out together, as one statement
 * (docs/decisions.md#batched-reads). On PostgreSQL each statement is a round trip whose fixed cost — the
 * system calls on both sides and waking the server's backend — is several times what one more row in the
 * answer costs; under load, requests for single rows arrive faster than round trips return, and a batch
 * pays that cost once for all of them.
 *
 * Nothing waits for a batch to fill: a read is sent at once when fewer than `lanes` batches are in flight,
 * so a lone request costs what it did before. Reads that arrive while every lane is busy queue, and the
 * next free lane takes them all (at most `maxBatch`, each key once). A batch that fails fails each read in it
 * with the same error.
 */
export interface BatchedReadsOptions {
  /**
   * Batches in flight at once (each holds one pooled connection while it runs). One by default: on a
   * machine of two cores one lane served EOB reads 4–16% faster than two (docs/decisions.md#batched-reads).
   */
  lanes?: number;
  /** Most keys in one statement. */
  maxBatch?: number;
}

interface Waiting<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

export function batchedReads<V>(
  readMany: (keys: string[]) => Promise<Map<string, V>>,
  options: BatchedReadsOptions = {},
): (key: string) => Promise<V | undefined> {
  const lanes = options.lanes ?? 1;
  const maxBatch = options.maxBatch ?? 100;
  /** Keys waiting for a lane, in arrival order, each with everyone who asked for it. */
  const queue = new Map<string, Waiting<V>[]>();
  let inFlight = 0;

  const send = () => {
    while (inFlight < lanes && queue.size > 0) {
      const batch = new Map<string, Waiting<V>[]>();
      for (const [key, waiting] of queue) {
        if (batch.size === maxBatch) break;
        batch.set(key, waiting);
        queue.delete(key);
      }
      inFlight += 1;
      readMany([...batch.keys()])
        .then(
          (found) => {
            for (const [key, waiting] of batch) for (const w of waiting) w.resolve(found.get(key));
          },
          (error: unknown) => {
            for (const waiting of batch.values()) for (const w of waiting) w.reject(error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          send();
        });
    }
  };

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const waiting = queue.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else queue.set(key, [{ resolve, reject }]);
      send();
    });
}
