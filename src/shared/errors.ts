/**
 * One error type carries a status and a protocol-shaped body; each service decides the body's shape
 * (OAuth JSON, `{"detail"}`, plain text, an HTML page) where it throws, and the HTTP layer renders it once.
 */
export type ErrorBody =
  | { kind: 'json'; value: Record<string, unknown> }
  | { kind: 'text'; value: string }
  | { kind: 'page'; template: string; data: Record<string, unknown> };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      body.kind === 'json' ? JSON.stringify(body.value) : body.kind === 'text' ? body.value : body.template,
    );
    this.name = 'HttpError';
  }
}

export function jsonError(status: number, value: Record<string, unknown>, headers?: Record<string, string>) {
  return new HttpError(status, { kind: 'json', value }, headers);
}

export function textError(status: number, value: string) {
  return new HttpError(status, { kind: 'text', value });
}

/**
 * A dependency the answer needs (the database) cannot be reached right now. Rendered as 503 with
 * `Retry-After` in the shape of the surface that raised it; nothing about the cause reaches the client.
 */
export class UnavailableError extends Error {
  constructor(
    readonly dependency: string,
    options?: { cause?: unknown },
  ) {
    super(`${dependency} unavailable`, options);
    this.name = 'UnavailableError';
  }
}
