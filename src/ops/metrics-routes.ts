import { createServer, type Server } from 'node:http';
import { sha256 } from '../shared/crypto.js';
import { jsonError } from '../shared/errors.js';
import type { App } from '../shared/http.js';
import { timingSafeEqual } from 'node:crypto';
import type { Metrics } from './metrics.js';

/** Whether `authorization` is `Bearer <token>`, compared in constant time (of the hashes). */
function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer (\S+)$/.exec(authorization ?? '');
  if (!match) return false;
  return timingSafeEqual(Buffer.from(sha256(match[1]!), 'hex'), Buffer.from(sha256(token), 'hex'));
}

/**
 * `GET /metrics` on the service's own port, for scrapers that present `Authorization: Bearer <token>`
 * (`METRICS_TOKEN`). Without the setting there is no such route: metrics are not public by default.
 */
export function registerMetricsRoute(app: App, metrics: Metrics, token: string): void {
  app.get('/metrics', { schema: { hide: true }, config: { offline: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      throw jsonError(
        401,
        { status_code: 401, message: 'A bearer token is required.' },
        { 'www-authenticate': 'Bearer realm="metrics"' },
      );
    }
    const { contentType, text } = await metrics.render();
    return reply.header('cache-control', 'no-store').type(contentType).send(text);
  });
}

/**
 * `/metrics` on a listener of its own (`METRICS_PORT`), for a network only the scraper reaches; every
 * other path is 404. Only the serve command starts it.
 */
export async function startMetricsServer(metrics: Metrics, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.\n');
      return;
    }
    metrics.render().then(
      ({ contentType, text }) => response.writeHead(200, { 'content-type': contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics failed.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
