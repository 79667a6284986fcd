import { followAuthorize } from './flow.js';
import { startService, type RunningService } from './service.js';
import { freePort } from './processes.js';

/** Follows an authorize URL built by a client library (not by our helpers) through the real pages. */
export const authorizeFromUrl = followAuthorize;

/**
 * Starts the service on a port chosen beforehand so that `PUBLIC_URL` (the discovery issuer and the base of
 * every advertised endpoint) is the very URL clients connect to.
 */
export async function startPublicService(env: Record<string, string> = {}): Promise<RunningService> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const running = await startService({ ...env, PORT: String(port), PUBLIC_URL: publicUrl }, port);
  if (running.url !== publicUrl) {
    await running.close();
    throw new Error(`service listens on ${running.url}, expected ${publicUrl}`);
  }
  return running;
}
