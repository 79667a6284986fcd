import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from './logger.js';

/** An answer written straight to a socket, for requests the HTTP parser refused before fastify saw them. */
export interface RawAnswer {
  status: number;
  /** Lower-case names; `content-length`, `connection` and `date` are added. */
  headers: Record<string, string>;
  body: string;
}

/** What Node's `clientError` event carries (fastify's type says `rawPacket` is JSON; it is a Buffer). */
interface ClientError extends Error {
  code?: string;
  rawPacket?: unknown;
}

/** How long a refused connection may stay half-closed, reading what the client still sends, before it is cut. */
const LINGER_MS = 5000;

/**
 * The status for each parser error, as Node's own answers them (`_http_server.js`): the request line and
 * headers over the limit 431 (RFC 6585 §5), chunk extensions over theirs 413, headers not received in time
 * 408, anything else unparseable 400.
 */
function statusOf(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        message: `The request line and headers are larger than ${Math.floor(maxHeaderSize / 1024)} KB.`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'The chunk extensions of the body are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request was not received in time.' };
    default:
      return { status: 400, message: 'Malformed HTTP request.' };
  }
}

/**
 * The path of the refused request, when the bytes the parser was reading start with its request line (they
 * do when the request came in one piece, the usual case even for an oversized one): enough to pick the
 * surface whose shape the answer takes. Possibly cut short, which prefixes do not mind.
 */
export function pathOfRawPacket(packet: unknown): string | undefined {
  if (!Buffer.isBuffer(packet)) return undefined;
  const head = packet.subarray(0, 8192).toString('latin1');
  return /^(?:\r\n)*[A-Z]+ (\/[^\s?#]*)/.exec(head)?.[1];
}

function serialize(answer: RawAnswer): Buffer {
  const body = Buffer.from(answer.body, 'utf8');
  const head = [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`,
    `date: ${new Date().toUTCString()}`,
    ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`),
    `content-length: ${body.length}`,
    'connection: close',
    '',
    '',
  ].join('\r\n');
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/**
 * fastify's `clientErrorHandler`: a request Node's parser refused (oversized headers, bad syntax, headers
 * too slow) gets a complete answer in its surface's shape, built by `answer`, and the connection is then
 * closed in order. fastify's default writes its own JSON without `Connection: close` and destroys the
 * socket at once; a keep-alive client then sends its next request on a connection the server has already
 * dropped and gets ECONNRESET. Here the socket is half-closed after the answer (FIN, not RST: whatever the
 * client is still sending is read and dropped), so the client reads the answer, sees `Connection: close`,
 * and opens a new connection for its next request.
 */
export function clientErrorHandler(
  answer: (status: number, message: string, path: string | undefined) => RawAnswer,
  logger: Logger,
): (error: ClientError, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection has no one to answer; an answered one still reports the bytes that follow.
    if (error.code === 'ECONNRESET' || socket.destroyed || socket.writableEnded) return;
    // A response already under way (a pipelined request before this one) cannot be followed by another.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = statusOf(error.code);
    logger.info({ code: error.code, status }, 'request refused by the HTTP parser');
    socket.end(serialize(answer(status, message, pathOfRawPacket(error.rawPacket))));
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
  };
}
