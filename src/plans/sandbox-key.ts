import type { Config } from '../config.js';
import type { ApiKeyStore } from './store/api-keys.js';

/** Fixed id of the sandbox's well-known key, so every instance creates the same one row. */
export const SANDBOX_KEY_ID = 'key_sandbox';

/**
 * Sandbox only: the well-known plan-API key (by default the public test key CMS prints in its API
 * document), so a fresh start answers without creating a key first. Every start makes the stored key
 * match the settings: the current key and limits in sandbox mode; no such key at all in production or
 * when SANDBOX_API_KEY is empty (a database that once ran as a sandbox keeps no public key).
 */
export async function ensureSandboxApiKey(keys: ApiKeyStore, config: Config, now: number): Promise<void> {
  if (config.mode !== 'sandbox' || config.sandboxApiKey === '') {
    await keys.deleteKey(SANDBOX_KEY_ID);
    return;
  }
  await keys.putKey(
    {
      id: SANDBOX_KEY_ID,
      key: config.sandboxApiKey,
      name: 'sandbox (well-known test key)',
      perSecond: config.apiRatePerSecond,
      perMinute: config.apiRatePerMinute,
      expiresAt: null,
    },
    now,
  );
}
