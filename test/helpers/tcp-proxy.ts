import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on a loopback port between the service and a real server (PostgreSQL, Redis), through
 * which a test injects faults without touching the shared server itself:
 * - `cut()`: every open connection is reset (a server restart, a failover, a network blip);
 * - `refuse()`: the port stops listening, so new connections are refused, and open ones are reset;
 * - `stall()`: bytes stop flowing both ways and new connections are accepted but not forwarded (a
 *   network that drops packets: nothing fails, everything waits); `restore()` delivers what was held;
 * - `restore()`: back to passing everything through.
 */
export interface TcpProxy {
  readonly port: number;
  cut(): void;
  refuse(): Promise<void>;
  stall(): void;
  restore(): Promise<void>;
  /** Connections accepted since the start. */
  readonly accepted: number;
  /** The local ports of the proxy's open connections to the target (how the target sees them). */
  upstreamPorts(): number[];
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream?: Socket;
  /** Bytes held back while stalled, delivered in order when the proxy passes again (as TCP would). */
  held: { to: 'client' | 'upstream'; chunk: Buffer }[];
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let mode: 'pass' | 'stall' | 'refuse' = 'pass';
  let accepted = 0;

  const drop = (pair: Pair) => {
    pair.client.destroy();
    pair.upstream?.destroy();
    pairs.delete(pair);
  };

  const forward = (pair: Pair) => {
    const upstream = connect(targetPort, targetHost);
    pair.upstream = upstream;
    upstream.on('error', () => drop(pair));
    upstream.on('close', () => drop(pair));
    // Bytes pass only while the proxy passes; while stalled they are held back.
    pair.client.on('data', (chunk: Buffer) => {
      if (mode === 'pass') upstream.write(chunk);
      else pair.held.push({ to: 'upstream', chunk });
    });
    upstream.on('data', (chunk: Buffer) => {
      if (mode === 'pass') pair.client.write(chunk);
      else pair.held.push({ to: 'client', chunk });
    });
  };

  const onConnection = (client: Socket) => {
    accepted += 1;
    const pair: Pair = { client, held: [] };
    pairs.add(pair);
    client.on('error', () => drop(pair));
    client.on('close', () => drop(pair));
    // A connection made during a stall is held open and never forwarded.
    if (mode === 'pass') forward(pair);
  };

  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const port = await listen(0);

  const cut = () => {
    for (const pair of [...pairs]) {
      // A reset, as a server that went away sends, not a polite FIN.
      pair.client.resetAndDestroy();
      pair.upstream?.resetAndDestroy();
      pairs.delete(pair);
    }
  };

  return {
    port,
    get accepted() {
      return accepted;
    },
    upstreamPorts: () =>
      [...pairs].flatMap((pair) => (pair.upstream?.localPort ? [pair.upstream.localPort] : [])),
    cut,
    async refuse() {
      mode = 'refuse';
      cut();
      await stopListening();
    },
    stall() {
      mode = 'stall';
    },
    async restore() {
      if (mode === 'refuse') {
        server = createServer(onConnection);
        mode = 'pass';
        await listen(port);
        return;
      }
      mode = 'pass';
      for (const pair of pairs) {
        if (!pair.upstream) forward(pair);
        for (const { to, chunk } of pair.held.splice(0)) {
          if (to === 'client') pair.client.write(chunk);
          else pair.upstream!.write(chunk);
        }
      }
    },
    async close() {
      cut();
      if (mode !== 'refuse') await stopListening();
    },
  };
}
