import type { Counters } from '../shared/counters.js';
import type { ApiKeyStore } from './store/api-keys.js';
import type { BulkService } from './bulk/build.js';
import type { CrosswalkStore } from './store/crosswalk.js';
import type { DatasetStore } from '../storage/datasets.js';
import type { DrugService } from './drugs/drug-service.js';
import type { ProviderService } from './providers/provider-service.js';
import type { GeographyStore } from './store/geography.js';
import type { IssuerStore } from './store/issuers.js';
import type { MarketService } from './market/market-service.js';
import type { MarketplaceStore } from './store/marketplace.js';
import type { MedicaidStore } from './store/medicaid.js';
import type { PlanDetailStore } from './store/plan-details.js';
import type { QualityStore } from './store/quality.js';
import type { RatingAreaStore } from './store/rating-areas.js';
import type { SampleTracker } from './gateway/sample-data.js';

/** What the plan API's routes are built from; the server assembles it, tests may assemble their own. */
export interface PlansDeps {
  apiKeys: ApiKeyStore;
  datasets: DatasetStore;
  geography: GeographyStore;
  ratingAreas: RatingAreaStore;
  marketplace: MarketplaceStore;
  medicaid: MedicaidStore;
  issuers: IssuerStore;
  planDetails: PlanDetailStore;
  /** County markets and Medicaid limits for the priced endpoints, kept while their datasets stay. */
  markets: MarketService;
  quality: QualityStore;
  crosswalks: CrosswalkStore;
  drugs: DrugService;
  providers: ProviderService;
  /** The `/data/*` documents: built once per data load, stored compressed. */
  bulk: BulkService;
  /** Rate-limit counters: in this process, or in Redis when several instances share one budget. */
  rateCounters: Counters;
  samples: SampleTracker;
  now: () => number;
  settings: {
    publicUrl: string;
    sandbox: boolean;
    /** How far `/providers/search` looks from the caller's ZIP. */
    providerRadiusMiles: number;
    /** Where `/data/*` redirects (`<url>/<year>/<name>.json`); undefined: the documents are served here. */
    bulkDataUrl: string | undefined;
  };
}
