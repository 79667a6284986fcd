import type { AppForm, PortalApp, PortalDeps } from '../deps.js';

/**
 * Registers an app for the developer. In sandbox mode it works at once; in production it waits for an
 * operator (`openenroll apps approve|reject`), and until then authorize answers it as unknown
 * (docs/portal.md#review). The client secret is returned once.
 */
export async function createApp(deps: PortalDeps, developerId: string, form: AppForm) {
  const review = deps.settings.sandbox ? 'approved' : 'pending';
  const created = await deps.apps.register(form, developerId, review, deps.now());
  deps.audit('portal_app_created', { developer: developerId, client_id: created.app.clientId, review });
  return created;
}

/** The developer's own app, or undefined (another developer's app is as unknown as a missing one). */
export async function ownApp(
  deps: PortalDeps,
  developerId: string,
  clientId: string,
): Promise<PortalApp | undefined> {
  const app = await deps.apps.find(clientId);
  return app?.developerId === developerId ? app : undefined;
}

export async function editApp(deps: PortalDeps, developerId: string, app: PortalApp, form: AppForm) {
  await deps.apps.edit(app.clientId, form, deps.now());
  deps.audit('portal_app_updated', { developer: developerId, client_id: app.clientId });
}

/** A new client secret, shown once; the previous one stops working at once. */
export async function rotateSecret(deps: PortalDeps, developerId: string, app: PortalApp) {
  const secret = await deps.apps.rotateSecret(app.clientId, deps.now());
  deps.audit('portal_app_secret_rotated', { developer: developerId, client_id: app.clientId });
  return secret;
}

/** Deletes the app with its grants and tokens. */
export async function deleteApp(deps: PortalDeps, developerId: string, app: PortalApp) {
  await deps.apps.remove(app.clientId);
  deps.audit('portal_app_deleted', { developer: developerId, client_id: app.clientId });
}
