/**
 * The autocannon loads: refresh grants and code exchanges on POST /v2/o/token/, GETs of FHIR resources.
 *
 * autocannon resets a connection's `context` every time it wraps around its `requests` array — with a single
 * request that is before every request — so the per-connection state (current refresh token, code pool)
 * lives in closures: `setupClient` gives each connection its own `requests` array bound to its own state.
 */
import autocannon, { type Client, type Options, type RequestSpec, type Result } from 'autocannon';
import type { GetTarget } from './eob.js';
import type { IssuedCode, TokenFamily } from './prepare.js';
import { basicAuthorization } from './prepare.js';
import type { RegisteredApp } from './server.js';

const TOKEN_PATH = '/v2/o/token/';
const FORM = 'application/x-www-form-urlencoded';

export interface LoadResult {
  result: Result;
  /** Responses other than 200, by status (expected: none). */
  failures: Record<string, number>;
  /** A few failing bodies, for the report. */
  samples: string[];
  /** 200 responses whose body lacked what the grant must return. */
  malformed: number;
  /** Response times of the 200 responses, in ms (finer than autocannon's whole-millisecond histogram). */
  latencies: number[];
  /**
   * Seconds from the start to the last response. autocannon only notices the end of an `amount`-bounded
   * run at its next one-second sample, so its own `duration` (and last per-second sample) include idle time.
   */
  activeSeconds: number;
  /** Responses in each second of the run (autocannon's ticks). */
  perSecond: number[];
}

/**
 * The servers under test in the order they take their turns in `round` (counted from 0): as given, then
 * reversed, and so on (A B, B A, A B, …), so that a machine whose speed drifts during a run favours neither.
 */
export function turns<T>(servers: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...servers] : [...servers].reverse();
}

/**
 * `measure` run `rounds` times on each server, the servers taking their turns (`turns`), one at a time;
 * each server's results in the order of its rounds. `measure` is given the round, counted from 0.
 */
export async function inTurns<S, T>(
  servers: readonly S[],
  rounds: number,
  measure: (server: S, round: number) => Promise<T>,
): Promise<Map<S, T[]>> {
  const results = new Map<S, T[]>(servers.map((server) => [server, []]));
  for (let round = 0; round < rounds; round++) {
    for (const server of turns(servers, round)) results.get(server)!.push(await measure(server, round));
  }
  return results;
}

/**
 * Rounds of one load as one: responses, failures, errors and load time summed, the response times together.
 * Of autocannon's own result only the error and timeout counts are kept (summed).
 */
export function mergeLoads<L extends LoadResult>(
  loads: L[],
  extra: (loads: L[]) => Omit<L, keyof LoadResult>,
): L {
  const failures: Record<string, number> = {};
  for (const load of loads) {
    for (const [status, n] of Object.entries(load.failures)) failures[status] = (failures[status] ?? 0) + n;
  }
  const sum = (of: (load: L) => number) => loads.reduce((total, load) => total + of(load), 0);
  return {
    ...extra(loads),
    result: {
      ...loads[0]!.result,
      errors: sum((l) => l.result.errors),
      timeouts: sum((l) => l.result.timeouts),
    },
    failures,
    samples: loads.flatMap((l) => l.samples).slice(0, 5),
    malformed: sum((l) => l.malformed),
    latencies: loads.flatMap((l) => l.latencies),
    activeSeconds: sum((l) => l.activeSeconds),
    perSecond: loads.flatMap((l) => l.perSecond),
  } as L;
}

/** Runs autocannon, keeping every 200 response's time and the time of the last response. */
async function run(options: Options) {
  const latencies: number[] = [];
  const perSecond: number[] = [];
  const started = performance.now();
  let last = started;
  const instance = autocannon(options);
  instance.on('response', (_client: Client, status: number, _bytes: number, ms: number) => {
    last = performance.now();
    if (status === 200) latencies.push(ms);
  });
  instance.on('tick', (tick: { counter: number }) => perSecond.push(tick.counter));
  const result = await instance;
  return { result, latencies, perSecond, activeSeconds: (last - started) / 1000 };
}

function failureRecorder() {
  const failures: Record<string, number> = {};
  const samples: string[] = [];
  return {
    failures,
    samples,
    record(status: number, body: string) {
      failures[status] = (failures[status] ?? 0) + 1;
      if (samples.length < 5) samples.push(`${status} ${body.slice(0, 200)}`);
    },
  };
}

function tokenRequest(authorization: string, form: Record<string, string>) {
  return {
    method: 'POST',
    path: TOKEN_PATH,
    headers: { 'content-type': FORM, authorization },
    body: new URLSearchParams(form).toString(),
  };
}

/** Hands `states[i]` to the i-th connection autocannon creates. */
function perConnection<T>(states: T[], requestFor: (state: T) => RequestSpec): (client: Client) => void {
  let next = 0;
  return (client) => {
    const state = states[next++ % states.length]!;
    client.setRequests([requestFor(state)]);
  };
}

/**
 * Refresh grants for `durationSeconds`: connection i owns family i and chains it — each response's new
 * refresh token is the one the connection sends next.
 */
export async function refreshLoad(
  base: string,
  families: TokenFamily[],
  durationSeconds: number,
): Promise<LoadResult> {
  const recorder = failureRecorder();
  let malformed = 0;
  const request = (family: TokenFamily): RequestSpec => ({
    setupRequest: (req) => ({
      ...req,
      ...tokenRequest(family.authorization, {
        grant_type: 'refresh_token',
        refresh_token: family.refreshToken,
      }),
    }),
    onResponse: (status, body) => {
      if (status !== 200) return recorder.record(status, body);
      const parsed = JSON.parse(body) as { refresh_token?: string };
      if (parsed.refresh_token) family.refreshToken = parsed.refresh_token;
      else malformed += 1;
    },
  });
  const outcome = await run({
    url: base,
    connections: families.length,
    duration: durationSeconds,
    pipelining: 1,
    // A placeholder; every connection replaces it with its own request in setupClient.
    requests: [{ method: 'POST', path: TOKEN_PATH }],
    setupClient: perConnection(families, request),
  });
  return { ...outcome, failures: recorder.failures, samples: recorder.samples, malformed };
}

/** Each connection exchanges the codes of its own app (no two connections race on one app+enrollee pair). */
export interface CodeConnection {
  app: RegisteredApp;
  pool: IssuedCode[];
}

/** Exchanges every pooled code exactly once: `amount` = pool size, so autocannon stops when they are spent. */
export async function codeLoad(base: string, connections: CodeConnection[]): Promise<LoadResult> {
  const recorder = failureRecorder();
  let malformed = 0;
  const amount = connections.reduce((sum, c) => sum + c.pool.length, 0);
  const request = (connection: CodeConnection): RequestSpec => {
    const authorization = basicAuthorization(connection.app);
    let position = 0;
    return {
      setupRequest: (req) => {
        const issued = connection.pool[position++];
        if (!issued) throw new Error('code pool ran dry before autocannon stopped');
        return {
          ...req,
          ...tokenRequest(authorization, {
            grant_type: 'authorization_code',
            code: issued.code,
            redirect_uri: issued.redirectUri,
            code_verifier: issued.verifier,
          }),
        };
      },
      onResponse: (status, body) => {
        if (status !== 200) return recorder.record(status, body);
        if (!(JSON.parse(body) as { access_token?: string }).access_token) malformed += 1;
      },
    };
  };
  const outcome = await run({
    url: base,
    connections: connections.length,
    amount,
    pipelining: 1,
    requests: [{ method: 'POST', path: TOKEN_PATH }],
    setupClient: perConnection(connections, request),
  });
  return { ...outcome, failures: recorder.failures, samples: recorder.samples, malformed };
}

/** A request of a cycled load, and what its 200 body must hold. */
interface CycledTarget {
  path: string;
  check(body: string): boolean;
}

/**
 * A load for `durationSeconds` whose connections share one cursor over `targets`, so together they cycle
 * through all of them in order: `spec` turns a target into its request, every 200 body goes through the
 * target's check, and `onOk` sees each 200 answer's headers.
 */
async function cycledLoad<T extends CycledTarget>(
  base: string,
  targets: T[],
  connections: number,
  durationSeconds: number,
  spec: (target: T) => { method: string; headers: Record<string, string>; body?: string },
  onOk?: (headers: Record<string, string | string[]>) => void,
): Promise<LoadResult> {
  const recorder = failureRecorder();
  let malformed = 0;
  let next = 0;
  const request = (): RequestSpec => {
    // Pipelining 1: a connection's response always belongs to its last request.
    let current = targets[0]!;
    return {
      setupRequest: (req) => {
        current = targets[next++ % targets.length]!;
        return { ...req, ...spec(current), path: current.path };
      },
      onResponse: (status, body, _context, headers) => {
        if (status !== 200) return recorder.record(status, body);
        if (!current.check(body)) malformed += 1;
        onOk?.(headers);
      },
    };
  };
  const outcome = await run({
    url: base,
    connections,
    duration: durationSeconds,
    pipelining: 1,
    requests: [{ ...spec(targets[0]!), path: targets[0]!.path }],
    setupClient: (client) => client.setRequests([request()]),
  });
  return { ...outcome, failures: recorder.failures, samples: recorder.samples, malformed };
}

/** Bearer GETs for `durationSeconds`, cycling through `targets` (`cycledLoad`), with `headers` more. */
export function getLoad(
  base: string,
  authorization: string,
  targets: GetTarget[],
  connections: number,
  durationSeconds: number,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  return cycledLoad(base, targets, connections, durationSeconds, () => ({
    method: 'GET',
    headers: { ...(authorization ? { authorization } : {}), ...headers },
  }));
}

/** A POST of a JSON body, and what its 200 body must hold. */
export interface PostTarget extends CycledTarget {
  body: string;
}

/** What a POST load measured beyond `LoadResult`: the server's own time per 200 answer (Server-Timing). */
export interface PostLoadResult extends LoadResult {
  /** `server-timing: app;dur=…` of each 200 answer (onRequest to onSend), ms. */
  serverMs: number[];
  /** `server-timing: search;dur=…` of each 200 answer (the route's own work), ms. */
  routeMs: number[];
}

const SERVER_TIMING = /app;dur=([0-9.]+)/;
const ROUTE_TIMING = /search;dur=([0-9.]+)/;

/** JSON POSTs for `durationSeconds`, cycling through `targets` like `getLoad`, with their Server-Timing. */
export async function postLoad(
  base: string,
  targets: PostTarget[],
  connections: number,
  durationSeconds: number,
): Promise<PostLoadResult> {
  const serverMs: number[] = [];
  const routeMs: number[] = [];
  const outcome = await cycledLoad(
    base,
    targets,
    connections,
    durationSeconds,
    (target) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: target.body }),
    (headers) => {
      const header = String(headers['server-timing'] ?? '');
      const app = SERVER_TIMING.exec(header);
      if (app) serverMs.push(Number(app[1]));
      const route = ROUTE_TIMING.exec(header);
      if (route) routeMs.push(Number(route[1]));
    },
  );
  return { ...outcome, serverMs, routeMs };
}
