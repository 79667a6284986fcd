// The part of autocannon's programmatic API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p2_5: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  }

  export interface Result {
    title?: string;
    url: string;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    start: Date;
    finish: Date;
    connections: number;
    pipelining: number;
    statusCodeStats: Record<string, { count: number }>;
    '2xx': number;
  }

  export interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  export type RequestContext = Record<string, unknown>;

  export interface RequestSpec extends RawRequest {
    /** Returns the request to send; a falsy value restarts the sequence. */
    setupRequest?: (request: RawRequest, context: RequestContext) => RawRequest | null | undefined;
    onResponse?: (
      status: number,
      body: string,
      context: RequestContext,
      headers: Record<string, string | string[]>,
    ) => void;
  }

  /** One connection. */
  export interface Client extends EventEmitter {
    setRequests(requests: RequestSpec[]): void;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: RequestSpec[];
    setupClient?: (client: Client) => void;
    excludeErrorStats?: boolean;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
