import type { App } from '../../shared/http.js';
import { parseUrlEncoded } from '../../shared/form.js';

const FORM = 'application/x-www-form-urlencoded';

/** A body that is JSON text: after whitespace it opens an object or an array. */
const LOOKS_JSON = /^\s*[{[]/;

function clientError(status: number, message: string): Error {
  return Object.assign(new Error(message), { statusCode: status });
}

function parseJson(text: string, contentType: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw clientError(400, `the body is not valid JSON (sent as ${contentType})`);
  }
}

/**
 * Every plan-API body is JSON (docs/decisions.md#plan-json-bodies), and the deployed API reads it as JSON
 * whatever the content type says:
 * - `text/plain` is what the HealthCare.gov front end sends, to avoid a CORS preflight (Fetch standard:
 *   a CORS-safelisted content type);
 * - `application/x-www-form-urlencoded` is what `curl -d` sends unless told otherwise: a body that is JSON
 *   text is read as JSON, not as a form whose one field is the JSON text (which would blame a field that
 *   was given); an empty body is an empty object (validation then names what is required); anything else
 *   is refused with 415 naming the content type, as no plan-API body is a flat form.
 * Only the plan API's scope is affected: the OAuth token endpoint keeps its form-only parsing (RFC 6749
 * §4.1.3).
 */
export function registerJsonBodyParsers(api: App): void {
  api.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body, done) => {
    try {
      done(null, parseJson(body as string, request.headers['content-type'] ?? 'text/plain'));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  api.removeContentTypeParser(FORM);
  api.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    try {
      if (LOOKS_JSON.test(text)) done(null, parseJson(text, FORM));
      else if (text.trim() === '') done(null, parseUrlEncoded(''));
      else {
        throw clientError(
          415,
          `the body must be JSON; it was sent as ${FORM} and is not JSON text (send it with ` +
            "content-type: application/json, e.g. curl -H 'content-type: application/json' -d '{…}')",
        );
      }
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
