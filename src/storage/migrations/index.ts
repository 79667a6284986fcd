import type { Migration } from 'kysely';
import * as auth from './0001-auth.js';
import * as liveTokenIndexes from './0002-live-token-indexes.js';
import * as codeRedirectGiven from './0003-code-redirect-given.js';
import * as fhirResources from './0004-fhir-resources.js';
import * as fhirPageIndex from './0005-fhir-page-index.js';
import * as planData from './0006-plan-data.js';
import * as datasetDuration from './0007-dataset-duration.js';
import * as coverage from './0008-coverage.js';
import * as bulkAndPrices from './0009-bulk-and-prices.js';
import * as openidConnect from './0010-openid-connect.js';
import * as enrolleeIdentities from './0011-enrollee-identities.js';
import * as tokenFamilies from './0012-token-families.js';
import * as rifClaims from './0013-rif-claims.js';
import * as fhirSearchValues from './0014-fhir-search-values.js';
import * as rifClaimSources from './0015-rif-claim-sources.js';
import * as developerPortal from './0016-developer-portal.js';
import * as redeemCodeFunction from './0017-redeem-code-function.js';
import * as fhirPatientCounts from './0018-fhir-patient-counts.js';

/** Every migration in order; names sort in the order they must run. */
export const migrations: Record<string, Migration> = {
  '0001-auth': auth,
  '0002-live-token-indexes': liveTokenIndexes,
  '0003-code-redirect-given': codeRedirectGiven,
  '0004-fhir-resources': fhirResources,
  '0005-fhir-page-index': fhirPageIndex,
  '0006-plan-data': planData,
  '0007-dataset-duration': datasetDuration,
  '0008-coverage': coverage,
  '0009-bulk-and-prices': bulkAndPrices,
  '0010-openid-connect': openidConnect,
  '0011-enrollee-identities': enrolleeIdentities,
  '0012-token-families': tokenFamilies,
  '0013-rif-claims': rifClaims,
  '0014-fhir-search-values': fhirSearchValues,
  '0015-rif-claim-sources': rifClaimSources,
  '0016-developer-portal': developerPortal,
  '0017-redeem-code-function': redeemCodeFunction,
  '0018-fhir-patient-counts': fhirPatientCounts,
};
