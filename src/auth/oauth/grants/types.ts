import type { ClientApp } from '../../store/apps.js';
import type { AuthDeps } from '../../deps.js';
import type { TokenResponse } from '../token-response.js';

export interface GrantRequest {
  app: ClientApp;
  params: Record<string, string | undefined>;
}

/** A token grant (RFC 6749 §4): its `grant_type`, the parameters it reads, and how it answers. */
export interface TokenGrant {
  grantType: string;
  parameters: readonly string[];
  handle(deps: AuthDeps, request: GrantRequest): Promise<TokenResponse>;
}
