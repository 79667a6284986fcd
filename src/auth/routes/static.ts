import { readFileSync } from 'node:fs';
import type { App } from '../../shared/http.js';

const css = readFileSync(new URL('../pages/pages.css', import.meta.url), 'utf8');

export function registerStaticRoutes(app: App): void {
  app.get(
    '/static/pages.css',
    { schema: { hide: true }, config: { offline: true } },
    async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(css),
  );
  app.get('/robots.txt', { schema: { hide: true }, config: { offline: true } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .send('User-agent: *\nDisallow: /v2/o/\nDisallow: /v2/accounts/\n'),
  );
}
