import {
  destination as stdout,
  pino,
  stdSerializers,
  type DestinationStream,
  type Logger as PinoLogger,
} from 'pino';

export type Logger = PinoLogger;

/** Query parameters that carry secrets and must never reach a log line. */
const SECRET_PARAMS = [
  'access_token',
  'code',
  'client_secret',
  'refresh_token',
  'token',
  'code_verifier',
  'password',
  'apikey',
  // An authorization request's `state` (ours at the identity provider, or an app's) guards against CSRF.
  'state',
];

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const name of SECRET_PARAMS) if (params.has(name)) params.set(name, '[redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/**
 * Structured JSON logs (stdout unless another destination is given); credentials in headers and query
 * strings are redacted.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers.apikey',
          'res.headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: redactUrl(req.url) }),
        err: stdSerializers.err,
      },
    },
    destination ?? stdout(1),
  );
}
