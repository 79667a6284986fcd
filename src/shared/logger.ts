import {
  destination as stdout,
  pino,
  stdSerializers,
  type DestinationStream,
  type Logger as PinoLogger,
} from 'pino';
import { PinoPretty } from 'pino-pretty';

export type Logger = PinoLogger;

/** The `LOG_FORMAT` setting: `auto` decides by whether stdout is a terminal. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * Query parameters that carry secrets and must never reach a log line, by normalized name (see
 * `normalizedName`): credentials and tokens, and an authorization request's `state` and `nonce` (ours at
 * the identity provider, or an app's), which guard against CSRF and replay (RFC 9700 §4.7, OIDC Core
 * §3.1.2.1).
 */
const SECRET_NAMES: ReadonlySet<string> = new Set(['code', 'codeverifier', 'state', 'nonce', 'password']);

/** Any name with one of these in it is a secret too: `access_token`, `api_key`, `client_secret`, … */
const SECRET_PARTS = ['token', 'secret', 'apikey', 'password', 'assertion'];

/**
 * A parameter name as a gateway, framework or careless client might read it: lower case, without the
 * separators and control characters that make `APIKEY`, `api-key`, `api_key` and `apikey%00` differ.
 */
function normalizedName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function isSecretName(name: string): boolean {
  const normal = normalizedName(name);
  return SECRET_NAMES.has(normal) || SECRET_PARTS.some((part) => normal.includes(part));
}

/** Nested URLs (a login page's `next`, itself an authorize request) are redacted this many levels deep. */
const MAX_NESTING = 8;

/**
 * A URL with the value of every secret parameter replaced by `[redacted]`, at any depth: a parameter whose
 * value is itself a URL or query string (`next=/v2/o/authorize/?state=…`) is redacted in turn. OWASP ASVS
 * 4.0 V7.1.1–7.1.2: no credentials, session tokens or other secrets in logs.
 */
export function redactUrl(url: string, depth = 0): string {
  const q = url.indexOf('?');
  const query = q < 0 ? (depth > 0 && url.includes('=') ? url : undefined) : url.slice(q + 1);
  if (query === undefined) return url;
  const prefix = q < 0 ? '' : url.slice(0, q + 1);
  const params = new URLSearchParams(query);
  const redacted = new URLSearchParams();
  for (const [name, value] of params) {
    if (isSecretName(name)) redacted.append(name, '[redacted]');
    else if (depth < MAX_NESTING && value.includes('=')) redacted.append(name, redactUrl(value, depth + 1));
    else if (value.includes('=')) redacted.append(name, '[redacted]');
    else redacted.append(name, value);
  }
  return `${prefix}${redacted.toString()}`;
}

/**
 * How stdout lines are written: the setting when it names a format, else readable lines for a person at a
 * terminal (as fastify's documentation suggests for development) and JSON lines for everything else
 * (production, pipes, tests), which log collectors parse.
 */
export function stdoutFormat(isTTY: boolean | undefined, setting: LogFormat): 'json' | 'pretty' {
  if (setting !== 'auto') return setting;
  return isTTY === true ? 'pretty' : 'json';
}

/**
 * Readable lines (to stdout unless told otherwise). pino-pretty reformats the line pino has already
 * redacted and serialised, so both formats carry the same fields and hide the same secrets.
 */
export function prettyStream(to: number | NodeJS.WritableStream = 1): DestinationStream {
  return PinoPretty({ destination: to, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

/**
 * Structured logs (to `destination`, else to stdout in the format `stdoutFormat` picks); credentials in
 * headers and query strings are redacted.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  format: LogFormat = 'auto',
): Logger {
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
    destination ?? (stdoutFormat(process.stdout.isTTY, format) === 'pretty' ? prettyStream() : stdout(1)),
  );
}
