import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DatasetInfo } from '../../storage/datasets.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The datasets (kinds, and the year when one applies) the answer was built from. */
    planData?: { kinds: readonly string[]; year?: number };
  }
}

/** Header on every answer built from the project's generated sample market (issue 4: labelled as sample). */
export const SAMPLE_HEADER = 'x-openenroll-sample-data';

/** Records what an answer is built from, so the sample label can be decided once for every route. */
export function usesData(request: FastifyRequest, kinds: readonly string[], year?: number): void {
  request.planData = { kinds, year };
}

/**
 * Which loaded datasets are sample data, re-read at most every few seconds: an ingest by another process
 * (replacing the sample with real files) shows up without a restart.
 */
export function createSampleTracker(list: () => Promise<DatasetInfo[]>, now: () => number, ttlMs = 5000) {
  let cached: { at: number; datasets: DatasetInfo[] } | undefined;
  const datasets = async () => {
    if (!cached || now() - cached.at > ttlMs) cached = { at: now(), datasets: await list() };
    return cached.datasets;
  };
  return {
    datasets,
    async isSample(kinds: readonly string[], year?: number): Promise<boolean> {
      return (await datasets()).some(
        (d) => d.sample && kinds.includes(d.kind) && (year === undefined || d.year === year || d.year === 0),
      );
    },
    /** Forget the cache (after this process loads data itself). */
    refresh() {
      cached = undefined;
    },
  };
}

export type SampleTracker = ReturnType<typeof createSampleTracker>;

/**
 * An `onSend` hook: runs for every answer, objects and pre-serialised JSON text alike. `label` says what
 * the sample is not.
 */
export function sampleLabel(
  tracker: SampleTracker,
  label = 'generated sample market; not real plans, premiums or ratings',
) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const used = request.planData;
    if (used && (await tracker.isSample(used.kinds, used.year))) {
      reply.header(SAMPLE_HEADER, label);
    }
    return payload;
  };
}
