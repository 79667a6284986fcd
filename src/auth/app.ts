import type { App } from '../shared/http.js';
import type { AuthDeps } from './deps.js';
import { registerAuthorizeRoutes } from './routes/authorize.js';
import { registerConnectedAppsRoutes } from './routes/connected-apps.js';
import { registerConsentRoutes } from './routes/consent.js';
import { allowCrossOriginReads } from './routes/cors.js';
import { registerDiscoveryRoutes } from './routes/discovery.js';
import { registerExpireRoute } from './routes/expire.js';
import { registerFederationRoutes } from './routes/federation.js';
import { registerTokenManagementRoutes } from './routes/token-management.js';
import { registerLoginRoutes } from './routes/login.js';
import { registerRevokeRoutes } from './routes/revoke.js';
import { registerStaticRoutes } from './routes/static.js';
import { registerTokenRoute } from './routes/token.js';
import { registerUserinfoRoute } from './routes/userinfo.js';

/** The authorization service's routes — its table of contents. */
export function registerAuthService(app: App, deps: AuthDeps): void {
  allowCrossOriginReads(app);
  registerStaticRoutes(app);
  registerDiscoveryRoutes(app, deps);
  registerAuthorizeRoutes(app, deps);
  registerLoginRoutes(app, deps);
  registerFederationRoutes(app, deps);
  registerConsentRoutes(app, deps);
  registerConnectedAppsRoutes(app, deps);
  registerTokenRoute(app, deps);
  registerRevokeRoutes(app, deps);
  if (deps.settings.sandbox) registerExpireRoute(app, deps);
  registerUserinfoRoute(app, deps);
  registerTokenManagementRoutes(app, deps);
}
