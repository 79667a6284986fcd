import type { Counters } from '../shared/counters.js';
import type { ApiKeyStore } from './store/api-keys.js';
import type { DatasetStore } from './store/datasets.js';
import type { SampleTracker } from './gateway/sample-data.js';

/** What the plan API's routes are built from; the server assembles it, tests may assemble their own. */
export interface PlansDeps {
  apiKeys: ApiKeyStore;
  datasets: DatasetStore;
  /** Rate-limit counters: in this process, or in Redis when several instances share one budget. */
  rateCounters: Counters;
  samples: SampleTracker;
  now: () => number;
  settings: {
    publicUrl: string;
    sandbox: boolean;
  };
}
