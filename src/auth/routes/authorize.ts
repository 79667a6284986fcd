import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageErrors } from '../errors.js';
import type { App } from '../../shared/http.js';
import { formBody, singleParams } from '../../shared/form.js';
import type { AuthDeps } from '../deps.js';
import { ClientRedirect, messageError, pageError } from '../oauth/errors.js';
import { validateAuthorizeRequest, type Params } from '../oauth/authorize-request.js';
import { startApproval } from '../consent/sessions.js';
import { currentEnrollee } from './browser-session.js';

/** Parameters come from the query first, then the form body (SMART "authorize-post"). */
function authorizeParams(request: FastifyRequest): Params {
  const problem = (message: string) => pageError(400, 'invalid_request', message);
  const query = singleParams(request.query, problem);
  const body =
    request.method === 'POST'
      ? formBody(request, (status, m) => pageError(status, 'invalid_request', m))
      : {};
  return { ...body, ...Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) };
}

/**
 * GET|POST /v2/o/authorize/ — validates the request (client and redirect URI first), then sends the browser
 * to the login page, or, when an enrollee is logged in, to the consent page of a new approval.
 */
async function authorize(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply) {
  const params = authorizeParams(request);
  const validated = await validateAuthorizeRequest(deps.apps, params).catch((error: unknown) => {
    if (error instanceof ClientRedirect) return error;
    throw error;
  });
  if (validated instanceof ClientRedirect) return reply.redirect(validated.location, 302);
  const { app, request: pending } = validated;
  if (request.method === 'POST') {
    const body = request.body as Record<string, unknown> | undefined;
    if (!body || typeof body.state !== 'string') throw messageError(401, 'State required in POST body.');
  }
  const session = await currentEnrollee(deps, request);
  if (!session) {
    const next = `/v2/o/authorize/?${new URLSearchParams(params as Record<string, string>).toString()}`;
    const lang = pending.lang ? `&lang=${pending.lang}` : '';
    return reply.redirect(`/v2/accounts/login?next=${encodeURIComponent(next)}${lang}`, 302);
  }
  const approvalId = await startApproval(deps, session, app, pending);
  const lang = pending.lang ? `?lang=${pending.lang}` : '';
  return reply.redirect(`/v2/o/authorize/${approvalId}/${lang}`, 302);
}

export function registerAuthorizeRoutes(app: App, deps: AuthDeps): void {
  const config = { errors: pageErrors };
  const schema = {
    tags: ['authorization'],
    summary: 'Start authorization (authorization code + PKCE S256); GET or POST',
    description:
      'Parameters: client_id, redirect_uri, response_type=code, state (16+ characters), code_challenge, ' +
      'code_challenge_method=S256, optional scope and lang (en|es). Redirects to login, then consent.',
  };
  app.get('/v2/o/authorize', { config, schema }, (request, reply) => authorize(deps, request, reply));
  app.post('/v2/o/authorize', { config, schema }, (request, reply) => authorize(deps, request, reply));
}
