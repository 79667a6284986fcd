import type { Logger } from '../shared/logger.js';

/**
 * Whether a dependency (the database, Redis) answers, as last seen by the requests and probes that used
 * it. A change of state is logged once — when it fails and when it recovers — not at every failed call.
 */
export interface Availability {
  readonly name: string;
  isUp(): boolean;
  /** A call succeeded: the dependency is up (logs the recovery when it was down). */
  succeeded(): void;
  /** A call failed because the dependency could not be reached (logs the outage when it was up). */
  failed(error: unknown): void;
  /**
   * While true, callers should not wait on the dependency at all: it stalled recently (a timeout, not a
   * refusal), and every request would wait out the same timeout. Every `quietMs` one caller is let
   * through to try again (false for it); a success ends the quiet period for everyone.
   */
  shouldFailFast(now: number): boolean;
  /** The dependency stalled (timed out): fail fast for a moment, then let the next call try again. */
  stalled(error: unknown, now: number): void;
}

export interface AvailabilityOptions {
  logger?: Logger;
  /** How long after a stall callers fail fast before trying the dependency again. */
  quietMs?: number;
  /** What the outage means for the service, added to the warning (e.g. "rate limits count per process"). */
  consequence?: string;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

export function createAvailability(name: string, options: AvailabilityOptions = {}): Availability {
  const quietMs = options.quietMs ?? 1000;
  let up = true;
  let downSince = 0;
  let failFastUntil = 0;
  const markDown = (error: unknown) => {
    if (!up) return;
    up = false;
    downSince = Date.now();
    options.logger?.warn(
      {
        dependency: name,
        reason: describe(error),
        ...(options.consequence ? { consequence: options.consequence } : {}),
      },
      `${name} unavailable`,
    );
  };
  return {
    name,
    isUp: () => up,
    succeeded() {
      failFastUntil = 0;
      if (up) return;
      up = true;
      options.logger?.info({ dependency: name, outageMs: Date.now() - downSince }, `${name} recovered`);
    },
    failed: markDown,
    shouldFailFast(now) {
      if (failFastUntil === 0) return false;
      if (now < failFastUntil) return true;
      // Half open: this caller tries the dependency; the others keep failing fast until it answers.
      failFastUntil = now + quietMs;
      return false;
    },
    stalled(error, now) {
      markDown(error);
      failFastUntil = now + quietMs;
    },
  };
}
