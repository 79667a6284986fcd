/**
 * Statements by key that requests make while others are on their way to the database go out together, as
 * one statement (docs/decisions.md#batched-statements). On PostgreSQL each statement is a round trip whose
 * fixed cost — the system calls on both sides and waking the server's backend — is several times what one
 * more row costs; under load, requests arrive faster than round trips return, and a batch pays that cost once
 * for all of them.
 *
 * Nothing waits for a batch to fill: a call is sent at once when fewer than `lanes` batches are in flight, so
 * a lone request costs what it did before. Calls that arrive while every lane is busy queue, and the next
 * free lane takes them in arrival order (at most `maxBatch`). A batch that fails fails each call in it with
 * the same error.
 */
export interface BatchOptions {
  /**
   * Batches in flight at once (each holds one pooled connection while it runs). One by default: on a
   * machine of two cores one lane served EOB reads 4–16% faster than two (docs/decisions.md#batched-statements).
   */
  lanes?: number;
  /** Most keys in one statement. */
  maxBatch?: number;
}

interface Call<I, V> {
  key: string;
  item: I;
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

/**
 * The batching itself. `share`: calls with one key (reads) join one entry of the batch and get its answer;
 * otherwise a call whose key is in the batch being formed or in one in flight (a second write to one row)
 * waits for a later batch, so a statement never names a row twice and writes to a row go out in order.
 */
function batcher<I, V>(
  runMany: (items: I[]) => Promise<Map<string, V>>,
  share: boolean,
  options: BatchOptions,
): (key: string, item: I) => Promise<V | undefined> {
  const lanes = options.lanes ?? 1;
  const maxBatch = options.maxBatch ?? 100;
  let queue: Call<I, V>[] = [];
  let inFlight = 0;
  /** Without `share`: the keys of the batches in flight. */
  const busy = new Set<string>();

  const send = () => {
    while (inFlight < lanes && queue.length > 0) {
      const batch = new Map<string, Call<I, V>[]>();
      const later: Call<I, V>[] = [];
      for (const call of queue) {
        const same = batch.get(call.key);
        if (same && share) same.push(call);
        else if (same || batch.size === maxBatch || busy.has(call.key)) later.push(call);
        else batch.set(call.key, [call]);
      }
      queue = later;
      // Every call waiting is for a row a batch in flight writes: its end sends them.
      if (batch.size === 0) return;
      inFlight += 1;
      if (!share) for (const key of batch.keys()) busy.add(key);
      let answer: Promise<Map<string, V>>;
      try {
        answer = runMany([...batch.values()].map((calls) => calls[0]!.item));
      } catch (error) {
        answer = Promise.reject(error);
      }
      answer
        .then(
          (found) => {
            for (const [key, calls] of batch) for (const call of calls) call.resolve(found.get(key));
          },
          (error: unknown) => {
            for (const calls of batch.values()) for (const call of calls) call.reject(error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          for (const key of batch.keys()) busy.delete(key);
          send();
        });
    }
  };

  return (key, item) =>
    new Promise<V | undefined>((resolve, reject) => {
      queue.push({ key, item, resolve, reject });
      send();
    });
}

/** Reads by key: `readMany` gets each key once and answers the rows it found, by key. */
export function batchedReads<V>(
  readMany: (keys: string[]) => Promise<Map<string, V>>,
  options: BatchOptions = {},
): (key: string) => Promise<V | undefined> {
  const read = batcher<string, V>(readMany, true, options);
  return (key) => read(key, key);
}

/**
 * Calls that each stand on their own — a conditional write of one row — keyed by what they must not share
 * a statement with: `runMany` gets the items of distinct keys and answers, by key, what each got (a key it
 * leaves out gets undefined: a write whose condition did not hold). Two calls with one key go out in
 * different statements, in the order they were made.
 */
export function batchedCalls<I, V>(
  runMany: (items: I[]) => Promise<Map<string, V>>,
  options: BatchOptions = {},
): (key: string, item: I) => Promise<V | undefined> {
  return batcher<I, V>(runMany, false, options);
}
