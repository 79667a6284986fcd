import type { App } from '../../shared/http.js';

/**
 * What a browser app (a SMART on FHIR app served from its own origin) reads cross-origin: the FHIR data
 * and its CapabilityStatement, userinfo, and the discovery documents. All are GET routes authorized by a
 * Bearer token or by nothing, so the HTTP kernel answers them with `Access-Control-Allow-Origin: *` and
 * answers their preflights (shared/cors.ts). The token, revocation and authorize endpoints are left out:
 * they are not for scripts of other origins (a confidential client calls the token endpoint from its
 * server; authorize is a top-level navigation).
 */
const CROSS_ORIGIN_PATHS = [
  /^\/v2\/fhir(\/|$)/,
  /^\/v2\/connect\/userinfo\/?$/,
  /^\/\.well-known\//,
  /^\/v2\/connect\/\.well-known\//,
];

/** Marks every route registered after it under those paths `cors: true`; call before registering them. */
export function allowCrossOriginReads(app: App): void {
  app.addHook('onRoute', (route) => {
    if (CROSS_ORIGIN_PATHS.some((path) => path.test(route.url)))
      route.config = { ...route.config, cors: true };
  });
}
