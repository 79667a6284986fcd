import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { isOlderVersion } from '../../src/storage/redis-version.js';

export interface FakeRedis {
  url: string;
  close(): Promise<void>;
}

export interface FakeRedisOptions {
  /** The whole INFO reply instead of the usual one: e.g. an error line, as when an ACL refuses INFO. */
  info?: string;
}

/** One RESP request: an array of bulk strings, as every client sends (RESP2, "Sending commands"). */
function readCommand(buffer: Buffer): { args: string[]; rest: Buffer } | undefined {
  const text = buffer.toString('latin1');
  let at = text.indexOf('\r\n');
  if (at < 0) return undefined;
  const count = Number(text.slice(1, at));
  const args: string[] = [];
  at += 2;
  for (let i = 0; i < count; i += 1) {
    const end = text.indexOf('\r\n', at);
    if (end < 0) return undefined;
    const length = Number(text.slice(at + 1, end));
    if (text.length < end + 2 + length + 2) return undefined;
    args.push(text.slice(end + 2, end + 2 + length));
    at = end + 2 + length + 2;
  }
  return { args, rest: buffer.subarray(at) };
}

const bulk = (text: string | undefined) =>
  text === undefined ? '$-1\r\n' : `$${Buffer.byteLength(text)}\r\n${text}\r\n`;

/**
 * A Redis of an older `version` on a loopback port, for what a real server of that age cannot be had
 * for: it answers what a client sends on connecting (PING, SELECT, CLIENT, INFO) and the commands the
 * counters use (MULTI/EXEC, SET, INCR, GET, DEL, PEXPIRE, PTTL), as that version would: before 2.6 INFO
 * takes no section argument; before 2.6.12 SET takes no options (PX, NX); before 7.0 PEXPIRE takes no NX.
 */
export async function startFakeRedis(version: string, options: FakeRedisOptions = {}): Promise<FakeRedis> {
  const before = (v: string) => isOlderVersion(version, v);
  const keys = new Map<string, { value: string; expiresAt?: number }>();
  const live = (key: string) => {
    const entry = keys.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) keys.delete(key);
    return keys.get(key);
  };
  const arity = (name: string, args: string[]): string | undefined => {
    const fixed: Record<string, number> = {
      GET: 1,
      INCR: 1,
      PTTL: 1,
      DEL: -1,
      PEXPIRE: before('7.0.0') ? 2 : -2,
    };
    const n = fixed[name] ?? (name === 'SET' && before('2.6.12') ? 2 : undefined);
    if (n === undefined || (n >= 0 ? args.length === n : args.length >= -n)) return undefined;
    return `-ERR wrong number of arguments for '${name.toLowerCase()}' command\r\n`;
  };
  const run = (name: string, args: string[]): string => {
    const [key = '', value = ''] = args;
    switch (name) {
      case 'PING':
        return '+PONG\r\n';
      case 'SELECT':
        return '+OK\r\n';
      case 'CLIENT':
        return '-ERR Syntax error, try CLIENT (LIST | KILL ip:port)\r\n';
      case 'INFO':
        if (args.length > 0 && before('2.6.0'))
          return "-ERR wrong number of arguments for 'info' command\r\n";
        return options.info ?? bulk(`redis_version:${version}\r\nredis_git_sha1:00000000\r\nloading:0\r\n`);
      case 'GET':
        return bulk(live(key)?.value);
      case 'SET': {
        const flags = args.slice(2).map((a) => a.toUpperCase());
        const px = flags.indexOf('PX');
        if (flags.some((f, i) => f !== 'NX' && f !== 'PX' && i !== px + 1)) return '-ERR syntax error\r\n';
        if (flags.includes('NX') && live(key)) return bulk(undefined);
        keys.set(key, { value, ...(px >= 0 ? { expiresAt: Date.now() + Number(flags[px + 1]) } : {}) });
        return '+OK\r\n';
      }
      case 'INCR': {
        const entry = live(key) ?? { value: '0' };
        if (!/^-?\d+$/.test(entry.value)) return '-ERR value is not an integer or out of range\r\n';
        keys.set(key, { ...entry, value: String(Number(entry.value) + 1) });
        return `:${Number(entry.value) + 1}\r\n`;
      }
      case 'DEL':
        return `:${args.filter((k) => keys.delete(k)).length}\r\n`;
      case 'PEXPIRE': {
        const entry = live(key);
        if (!entry || (args[2]?.toUpperCase() === 'NX' && entry.expiresAt !== undefined)) return ':0\r\n';
        entry.expiresAt = Date.now() + Number(value);
        return ':1\r\n';
      }
      case 'PTTL': {
        const entry = live(key);
        return `:${entry ? (entry.expiresAt === undefined ? -1 : entry.expiresAt - Date.now()) : -2}\r\n`;
      }
      default:
        return `-ERR unknown command '${name.toLowerCase()}'\r\n`;
    }
  };

  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let queued: string[][] | undefined;
    let aborted = false;
    const answer = ([command = '', ...args]: string[]): string => {
      const name = command.toUpperCase();
      if (name === 'MULTI') {
        [queued, aborted] = [[], false];
        return '+OK\r\n';
      }
      if (name === 'EXEC' && queued) {
        const commands = queued;
        queued = undefined;
        if (aborted) return '-EXECABORT Transaction discarded because of previous errors.\r\n';
        return `*${commands.length}\r\n${commands.map(([n = '', ...a]) => run(n, a)).join('')}`;
      }
      const wrong = arity(name, args);
      if (queued) {
        // Since 2.6.5 a command refused while queued discards the whole transaction at EXEC.
        aborted ||= wrong !== undefined && !before('2.6.5');
        if (!wrong) queued.push([name, ...args]);
        return wrong ?? '+QUEUED\r\n';
      }
      return wrong ?? run(name, args);
    };
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (let command = readCommand(pending); command; command = readCommand(pending)) {
        pending = command.rest;
        socket.write(answer(command.args));
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
