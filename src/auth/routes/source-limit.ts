import type { FastifyRequest } from 'fastify';
import { countSource, sourceOf, type SourceAction } from '../consent/source-limits.js';
import type { AuthDeps } from '../deps.js';
import type { Language } from '../oauth/language.js';
import { translator } from '../pages/i18n.js';

export interface SourceLimited {
  retryAfterSeconds: number;
  /** The sentence for the page, in its language. */
  message: string;
}

/**
 * Counts this request against its client address's sign-in limits (the forwarded address when
 * `TRUST_PROXY` is set: fastify's `request.ip`); undefined when it may go on, else what a 429 says.
 */
export async function limitSource(
  deps: AuthDeps,
  request: FastifyRequest,
  action: SourceAction,
  lang: Language,
): Promise<SourceLimited | undefined> {
  const source = sourceOf(request.ip);
  const retryAfter = await countSource(
    deps.sourceCounters,
    action,
    source,
    deps.settings.signInWindows,
    deps.now(),
  );
  if (retryAfter === undefined) return undefined;
  deps.audit('sign_in_source_limited', { action, source, retry_after: retryAfter });
  const t = translator(lang);
  const message =
    retryAfter < 120
      ? t('sourceLimitedSeconds', { count: String(retryAfter) })
      : t('sourceLimitedMinutes', { count: String(Math.ceil(retryAfter / 60)) });
  return { retryAfterSeconds: retryAfter, message };
}
