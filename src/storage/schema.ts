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

export interface AccessTokensTable {
  token_hash: string;
  client_id: string;
  enrollee_id: string;
  family_id: string;
  scope: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  client_id: string;
  enrollee_id: string;
  family_id: string;
  access_token_hash: string;
  scope: string;
  created_at: number;
  used_at: number | null;
  revoked_at: number | null;
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
}

export interface Database {
  apps: AppsTable;
  enrollees: EnrolleesTable;
  sessions: SessionsTable;
  approvals: ApprovalsTable;
  auth_codes: AuthCodesTable;
  grants: GrantsTable;
  archived_grants: ArchivedGrantsTable;
  access_tokens: AccessTokensTable;
  refresh_tokens: RefreshTokensTable;
  counters: CountersTable;
  fhir_resources: FhirResourcesTable;
}
