import type { Generated } from 'kysely';

/**
 * Table shapes shared by both dialects. Booleans are 0/1 integers (SQLite cannot bind JS booleans);
 * instants are epoch milliseconds generated in JS; ids are random or natural text keys.
 */

export interface AppsTable {
  client_id: string;
  name: string;
  name_key: string;
  client_secret_hash: string;
  redirect_uris: string;
  data_access_type: string;
  require_demographic_scopes: number;
  scopes: string;
  active: number;
  logo_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  support_email: string | null;
  token_management: number;
  created_at: number;
  updated_at: number;
  /** `approved`, `pending` (a portal app awaiting an operator in production) or `rejected`. */
  review_status: Generated<string>;
  website_uri: string | null;
  /** The developer who registered it in the portal; null for apps the CLI made. */
  developer_id: string | null;
}

export interface EnrolleesTable {
  id: string;
  username: string;
  password_hash: string;
  patient_id: string;
  given_name: string;
  family_name: string;
  email: string | null;
  sandbox_password: string | null;
  created_at: number;
}

/** An identity-provider account, (issuer, subject), linked to the enrollee it signs in as. */
export interface EnrolleeIdentitiesTable {
  issuer: string;
  subject: string;
  enrollee_id: string;
  linked_at: number;
  last_sign_in_at: number;
}

/** A sign-in sent to the identity provider and not yet back (keyed by the SHA-256 of its `state`). */
export interface IdpRequestsTable {
  state_hash: string;
  browser_hash: string;
  issuer: string;
  code_verifier: string;
  nonce: string;
  next: string;
  lang: string | null;
  created_at: number;
  expires_at: number;
}

export interface SessionsTable {
  id_hash: string;
  enrollee_id: string;
  created_at: number;
  expires_at: number;
}

export interface ApprovalsTable {
  id: string;
  enrollee_id: string;
  client_id: string;
  request: string;
  created_at: number;
  expires_at: number;
  /** When the enrollee logged in (epoch ms); null for approvals made before 0010. */
  auth_time: number | null;
}

export interface AuthCodesTable {
  code_hash: string;
  client_id: string;
  enrollee_id: string;
  redirect_uri: string;
  redirect_uri_given: number;
  scope: string;
  code_challenge: string;
  family_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  auth_time: number | null;
  nonce: string | null;
}

export interface GrantsTable {
  id: string;
  client_id: string;
  enrollee_id: string;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
}

export interface ArchivedGrantsTable {
  id: string;
  client_id: string;
  enrollee_id: string;
  created_at: number;
  expires_at: number | null;
  archived_at: number;
  reason: string;
}

/**
 * A token family: the current access token and (for apps that may refresh) refresh token an authorization
 * gave an app, as SHA-256 hashes; each refresh replaces both in place.
 */
export interface TokenFamiliesTable {
  family_id: string;
  client_id: string;
  enrollee_id: string;
  scope: string;
  /** When the enrollee logged in (OIDC Core §12.2: a refreshed ID token keeps its `auth_time`). */
  auth_time: number | null;
  access_hash: string;
  access_expires_at: number;
  refresh_hash: string | null;
  created_at: number;
  rotated_at: number;
  revoked_at: number | null;
}

/** A token issued before tokens named their family (migration 0012), by hash, and its family. */
export interface LegacyTokensTable {
  token_hash: string;
  family_id: string;
}

/** An ID-token signing key (OpenID Connect); `private_key` is PKCS#8 PEM and is never published. */
export interface SigningKeysTable {
  kid: string;
  generation: number;
  alg: string;
  public_jwk: string;
  private_key: string;
  created_at: number;
  not_before: number;
  retired_at: number | null;
}

export interface CountersTable {
  key: string;
  count: number;
  expires_at: number;
}

export interface FhirResourcesTable {
  resource_type: string;
  id: string;
  patient_id: string;
  eob_type: string | null;
  service_date: string | null;
  last_updated: number;
  body: string;
  /** 1: an EOB Blue Button withholds under `excludeSAMHSA=true` (RIF loads set it; default 0). */
  samhsa: Generated<number>;
  /**
   * A claim loaded from RIF files: its rows and names as JSON, made into `body` ('' until then) at the first
   * read (docs/claims-rif.md#storage); null for a resource stored whole.
   */
  source: string | null;
}

/**
 * PostgreSQL only: how many resources of a type a patient has, kept by triggers on `fhir_resources`
 * (migration 0018, docs/decisions.md#fhir-patient-counts).
 */
export interface FhirPatientCountsTable {
  resource_type: string;
  patient_id: string;
  n: number | string;
}

/** The column names of one RIF header, which a stored claim's cells are read against. */
export interface RifLayoutsTable {
  id: string;
  record_type: string;
  columns: string;
}

/** A beneficiary's latest RIF row (`ingest rif`): JSON of column → text. */
export interface RifBeneficiariesTable {
  bene_id: string;
  row: string;
  loaded_at: number;
}

/** A RIF row naming an earlier identity of a beneficiary (beneficiary or MBI history). */
export interface RifBeneficiaryHistoryTable {
  record_type: string;
  row_key: string;
  bene_id: string;
  seq: number;
  row: string;
  loaded_at: number;
}

/** A token of a resource for a token search filtered in SQL (EOB `identifier`); `system` '' when none. */
export interface FhirSearchTokensTable {
  resource_type: string;
  id: string;
  param: string;
  system: string;
  value: string;
}

/** The days one value of a multi-valued date search spans (EOB `service-start-date`, …), inclusive. */
export interface FhirSearchDatesTable {
  resource_type: string;
  id: string;
  param: string;
  first_day: string;
  last_day: string;
}

/** A loaded plan-API dataset: which ingest kind, for which year, from where, and whether it is sample data. */
export interface PlanDatasetsTable {
  kind: string;
  year: number;
  sample: number;
  source: string;
  rows: number;
  loaded_at: number;
  /** How long the latest load took; null for loads made before it was recorded. */
  duration_ms: number | null;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  key_hash: string;
  per_second: number;
  per_minute: number;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  /** The developer who created it in the portal; null for keys the CLI made. */
  developer_id: string | null;
}

export interface GeoCountiesTable {
  fips: string;
  state: string;
  name: string;
}

export interface GeoZipCountiesTable {
  zip: string;
  fips: string;
  state: string;
  city: string;
  res_ratio: number;
  tot_ratio: number;
}

export interface RatingAreasTable {
  year: number;
  state: string;
  fips: string;
  zip3: string;
  area: number;
}

export interface MedicaidLimitsTable {
  year: number;
  quarter: number;
  state: string;
  program: string;
  category: string;
  pct_fpl: number | null;
}

export interface IssuersTable {
  year: number;
  issuer_id: string;
  state: string;
  name: string;
  toll_free: string | null;
  tty: string | null;
  individual_url: string | null;
  shop_url: string | null;
  source: string;
}

export interface PlansTable {
  year: number;
  plan_id: string;
  state: string;
  issuer_id: string;
  name: string;
  market: string;
  dental_only: number;
  metal_level: string;
  plan_type: string;
  design_type: string;
  service_area_id: string | null;
  network_id: string | null;
  hsa_eligible: number;
  ehb_pct: number | null;
  source: string;
  detail: string;
}

export interface PlanVariantsTable {
  year: number;
  variant_id: string;
  plan_id: string;
  csr_type: string;
  name: string;
  source: string;
  detail: string;
}

export interface PlanCountiesTable {
  year: number;
  plan_id: string;
  fips: string;
  rating_area: number;
  premiums: string;
}

export interface ServiceAreasTable {
  year: number;
  state: string;
  issuer_id: string;
  service_area_id: string;
  name: string;
  cover_entire_state: number;
  fips: string;
  partial_county: number;
  zips: string;
  market: string;
  dental_only: number;
}

export interface PlanRatesTable {
  year: number;
  plan_id: string;
  state: string;
  rating_area: number;
  age: string;
  tobacco: string;
  effective_date: string;
  expiration_date: string;
  individual_rate: number;
  tobacco_rate: number | null;
  family: string | null;
}

export interface PlanBenefitsTable {
  year: number;
  variant_id: string;
  plan_id: string;
  name: string;
  covered: number;
  is_ehb: number;
  detail: string;
}

export interface CrosswalksTable {
  year: number;
  state: string;
  old_plan_id: string;
  fips: string;
  zip: string;
  level: number;
  reason: number;
  new_plan_id: string | null;
  ageoff_plan_id: string | null;
}

export interface QualityRatingsTable {
  year: number;
  plan_id: string;
  state: string;
  issuer_id: string;
  overall: string;
  medical_care: string;
  member_experience: string;
  plan_administration: string;
}

export interface NetworksTable {
  year: number;
  issuer_id: string;
  network_id: string;
  state: string;
  name: string;
  url: string;
}

export interface BusinessRulesTable {
  year: number;
  issuer_id: string;
  scope_id: string;
  state: string;
  detail: string;
}

export interface DrugsTable {
  rxcui: string;
  name: string;
  tty: string;
  strength: string;
  route: string;
  full_name: string;
  rxnorm_dose_form: string;
  rxterms_dose_form: string;
  generic_rxcui: string | null;
}

export interface DrugPrefixesTable {
  prefix: string;
  rank: number;
  rxcui: string;
}

export interface ZipLocationsTable {
  zip: string;
  lat: number;
  lon: number;
}

export interface ProvidersTable {
  npi: string;
  type: string;
  name: string;
  gender: string | null;
  taxonomy: string;
  taxonomies: string;
  street_1: string;
  street_2: string;
  city: string;
  state: string;
  zip: string;
  phone: string;
}

export interface ProviderTermsTable {
  zip: string;
  term: string;
  npi: string;
  type: string;
}

export interface ProviderTaxonomiesTable {
  code: string;
  classification: string;
  specialization: string;
  display_name: string;
}

export interface CoveragePlansTable {
  year: number;
  plan_id: string;
  issuer_id: string;
  marketing_name: string;
  drugs: number;
  providers: number;
  source: string;
}

export interface PlanDrugsTable {
  year: number;
  plan_id: string;
  rxcui: string;
  issuer_id: string;
  drug_tier: string;
  prior_authorization: number;
  step_therapy: number;
  quantity_limit: number;
}

export interface NetworkProvidersTable {
  year: number;
  issuer_id: string;
  npi: string;
  type: string;
  name: string;
  gender: string | null;
  specialties: string;
  languages: string;
  facility_types: string;
  accepting: string;
  addresses: string;
  plan_ids: string;
  network_tiers: string;
}

export interface IssuerDrugsTable {
  year: number;
  issuer_id: string;
  rxcui: string;
  plan_ids: string;
}

export interface BulkDocumentsTable {
  name: string;
  year: number;
  etag: string;
  version: string;
  sample: number;
  bytes: number;
  gzip_bytes: number;
  chunks: number;
  built_at: number;
  build_ms: number;
}

export interface BulkChunksTable {
  etag: string;
  seq: number;
  data: Uint8Array;
}

export interface DecileMappingsTable {
  year: number;
  utilization: string;
  gender: string;
  age_max: number;
  decile: number;
}

export interface PplCostsTable {
  year: number;
  facility_type: string;
  source: string;
  code: string;
  description: string;
  indicator: string;
  apc: string | null;
  total_cents: number;
  copay_cents: number;
}

export interface PplProceduresTable {
  code: string;
  description: string;
  frequency: number;
}

/** A developer-portal account (docs/portal.md). */
export interface DevelopersTable {
  id: string;
  email: string;
  email_key: string;
  name: string;
  organization: string;
  password_hash: string;
  verified_at: number | null;
  created_at: number;
}

export interface DeveloperSessionsTable {
  id_hash: string;
  developer_id: string;
  created_at: number;
  expires_at: number;
}

/** A mailed single-use link (e-mail verification or password reset), stored as the SHA-256 of its secret. */
export interface DeveloperLinksTable {
  token_hash: string;
  developer_id: string;
  purpose: string;
  created_at: number;
  expires_at: number;
}

export interface Database {
  apps: AppsTable;
  enrollees: EnrolleesTable;
  enrollee_identities: EnrolleeIdentitiesTable;
  idp_requests: IdpRequestsTable;
  sessions: SessionsTable;
  approvals: ApprovalsTable;
  auth_codes: AuthCodesTable;
  grants: GrantsTable;
  archived_grants: ArchivedGrantsTable;
  token_families: TokenFamiliesTable;
  legacy_tokens: LegacyTokensTable;
  signing_keys: SigningKeysTable;
  counters: CountersTable;
  fhir_resources: FhirResourcesTable;
  fhir_patient_counts: FhirPatientCountsTable;
  rif_beneficiaries: RifBeneficiariesTable;
  rif_layouts: RifLayoutsTable;
  rif_beneficiary_history: RifBeneficiaryHistoryTable;
  fhir_search_tokens: FhirSearchTokensTable;
  fhir_search_dates: FhirSearchDatesTable;
  plan_datasets: PlanDatasetsTable;
  api_keys: ApiKeysTable;
  geo_counties: GeoCountiesTable;
  geo_zip_counties: GeoZipCountiesTable;
  rating_areas: RatingAreasTable;
  medicaid_limits: MedicaidLimitsTable;
  issuers: IssuersTable;
  plans: PlansTable;
  plan_variants: PlanVariantsTable;
  plan_counties: PlanCountiesTable;
  service_areas: ServiceAreasTable;
  plan_rates: PlanRatesTable;
  plan_benefits: PlanBenefitsTable;
  crosswalks: CrosswalksTable;
  quality_ratings: QualityRatingsTable;
  networks: NetworksTable;
  business_rules: BusinessRulesTable;
  drugs: DrugsTable;
  drug_prefixes: DrugPrefixesTable;
  zip_locations: ZipLocationsTable;
  providers: ProvidersTable;
  provider_terms: ProviderTermsTable;
  provider_taxonomies: ProviderTaxonomiesTable;
  coverage_plans: CoveragePlansTable;
  plan_drugs: PlanDrugsTable;
  issuer_drugs: IssuerDrugsTable;
  network_providers: NetworkProvidersTable;
  bulk_documents: BulkDocumentsTable;
  bulk_chunks: BulkChunksTable;
  decile_mappings: DecileMappingsTable;
  ppl_costs: PplCostsTable;
  ppl_procedures: PplProceduresTable;
  developers: DevelopersTable;
  developer_sessions: DeveloperSessionsTable;
  developer_links: DeveloperLinksTable;
}
