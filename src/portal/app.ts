import type { App } from '../shared/http.js';
import type { PortalDeps } from './deps.js';
import { registerAccountRoutes } from './routes/accounts.js';
import { registerWorkspaceRoutes } from './routes/workspace.js';

/** The developer portal's pages (`/developers`) — its table of contents. */
export function registerPortalService(app: App, deps: PortalDeps): void {
  registerAccountRoutes(app, deps);
  registerWorkspaceRoutes(app, deps);
}
