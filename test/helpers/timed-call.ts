/** One HTTP answer as the outage and timeout suites read it: status, time taken, headers, text, JSON if any. */
export interface Answer {
  status: number;
  ms: number;
  headers: Headers;
  /** `content-type`, '' when absent. */
  type: string;
  retryAfter: string | null;
  text: string;
  json?: Record<string, unknown>;
}

/** Requests `base + path` without following redirects, timing it to the end of its body. */
export async function call(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(base + path, { ...init, redirect: 'manual' });
  const text = await response.text();
  const ms = performance.now() - started;
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* a page, or text */
  }
  return {
    status: response.status,
    ms,
    headers: response.headers,
    type: response.headers.get('content-type') ?? '',
    retryAfter: response.headers.get('retry-after'),
    text,
    json,
  };
}
