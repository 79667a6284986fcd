import type { Config } from '../config.js';
import type { ApiKeyStore } from './store/api-keys.js';

/** Fixed id of the sandbox's well-known key, so every instance creates the same one row. */
export const SANDBOX_KEY_ID = 'key_sandbox';

/**
 * Sandbox only: the well-known plan-API key (by default the public test key CMS prints in its API
 * document), so a fresh start answers without creating a key first. Production never has it.
 */
export async function ensureSandboxApiKey(keys: ApiKeyStore, config: Config, now: number): Promise<void> {
  if (config.mode !== 'sandbox' || config.sandboxApiKey === '') return;
  await keys.ensureKey(
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
