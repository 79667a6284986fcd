/**
 * Values kept per (object, key): worked out once and kept while the object lives (a cached county market,
 * a plan's details). `max` bounds the keys kept per object: past it they start over. `undefined` is never
 * kept: a computation that gives it runs again next time.
 */
export function perObject<O extends object, K, V>(max = Infinity) {
  const byObject = new WeakMap<O, Map<K, V>>();
  return (object: O, key: K, compute: () => V): V => {
    let byKey = byObject.get(object);
    if (!byKey) {
      byKey = new Map();
      byObject.set(object, byKey);
    }
    let value = byKey.get(key);
    if (value === undefined) {
      value = compute();
      if (byKey.size >= max) byKey.clear();
      byKey.set(key, value);
    }
    return value;
  };
}

/**
 * `perObject` for values worked out asynchronously: only a fulfilled value is kept (a failed computation,
 * e.g. while the database is away, runs again next time).
 */
export function perObjectAsync<O extends object, K, V>(max = Infinity) {
  const byObject = new WeakMap<O, Map<K, V>>();
  return async (object: O, key: K, compute: () => Promise<V>): Promise<V> => {
    let byKey = byObject.get(object);
    if (!byKey) {
      byKey = new Map();
      byObject.set(object, byKey);
    }
    const kept = byKey.get(key);
    if (kept !== undefined) return kept;
    const value = await compute();
    if (value !== undefined) {
      if (byKey.size >= max) byKey.clear();
      byKey.set(key, value);
    }
    return value;
  };
}
