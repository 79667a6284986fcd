import type { PortalDeps, PortalKey } from '../deps.js';

export interface KeyView extends PortalKey {
  requestsToday: number;
}

/** A new plan-API key with the service's default limits; the key itself is returned once. */
export async function createKey(deps: PortalDeps, developerId: string, name: string) {
  const created = await deps.keys.create(name, developerId, deps.now());
  deps.audit('portal_key_created', { developer: developerId, key_id: created.record.id });
  return created;
}

/** The developer's keys, newest last, each with the requests it made today. */
export async function listKeys(deps: PortalDeps, developerId: string): Promise<KeyView[]> {
  const now = deps.now();
  const keys = await deps.keys.listOf(developerId);
  return Promise.all(
    keys.map(async (k) => ({ ...k, requestsToday: await deps.keys.requestsToday(k.id, now) })),
  );
}

/** Revokes the developer's own key; false when it is not theirs or already revoked. */
export async function revokeKey(deps: PortalDeps, developerId: string, id: string): Promise<boolean> {
  const own = (await deps.keys.listOf(developerId)).some((k) => k.id === id);
  if (!own || !(await deps.keys.revoke(id, deps.now()))) return false;
  deps.audit('portal_key_revoked', { developer: developerId, key_id: id });
  return true;
}
