/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time by function and by code area, and
 * inclusive time of the project's own functions. Usable alone: `node --import tsx bench/profile.ts FILE`.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const ROOT = resolve(import.meta.dirname, '..');

function where(frame: CallFrame): string {
  if (!frame.url) return '';
  const path = frame.url.startsWith('file://') ? new URL(frame.url).pathname : frame.url;
  const shown = path.startsWith(ROOT) ? relative(ROOT, path) : path;
  // tsx-compiled sources report line 1 for everything (whitespace is minified): the file is what tells.
  return frame.lineNumber > 0 ? `${shown}:${frame.lineNumber + 1}` : shown;
}

/** Where a frame's code belongs: a package, a project folder, node internals, or V8 itself. */
function area(frame: CallFrame): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1]!;
  const path = url.startsWith('file://') ? new URL(url).pathname : url;
  if (path.startsWith(ROOT)) return relative(ROOT, path).split('/').slice(0, 3).join('/');
  return path;
}

export interface Hotspot {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  byFunction: Hotspot[];
  byArea: Hotspot[];
  /** Inclusive (self + callees) time of functions defined in src/. */
  projectInclusive: Hotspot[];
}

function top(map: Map<string, number>, totalMs: number, count: number): Hotspot[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => ({ name, ms, share: ms / totalMs }));
}

export function summariseProfile(path: string, count = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const totalMs = [...selfUs.values()].reduce((a, b) => a + b, 0) / 1000;

  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) =>
    map.set(key, (map.get(key) ?? 0) + us / 1000);
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    add(byFunction, `${frame.functionName || '(anonymous)'} ${where(frame)}`.trim(), us);
    add(byArea, area(frame), us);
    // Charge the sample once to every distinct src/ function on its stack.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      const place = where(f);
      if (!place.startsWith('src/')) continue;
      const key = `${f.functionName || '(anonymous)'} ${place}`;
      if (!seen.has(key)) {
        seen.add(key);
        add(inclusive, key, us);
      }
    }
  }
  return {
    totalMs,
    byFunction: top(byFunction, totalMs, count),
    byArea: top(byArea, totalMs, count),
    projectInclusive: top(inclusive, totalMs, count),
  };
}

export function formatSummary(summary: ProfileSummary): string {
  const block = (title: string, rows: Hotspot[]) =>
    [
      title,
      ...rows.map(
        (h) => `  ${(h.share * 100).toFixed(1).padStart(5)}%  ${h.ms.toFixed(0).padStart(7)} ms  ${h.name}`,
      ),
    ].join('\n');
  return [
    `profile: ${summary.totalMs.toFixed(0)} ms sampled`,
    block('self time by function:', summary.byFunction),
    block('self time by area:', summary.byArea),
    block('inclusive time of src/ functions:', summary.projectInclusive),
  ].join('\n\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node --import tsx bench/profile.ts FILE.cpuprofile [COUNT]');
    process.exit(2);
  }
  console.log(formatSummary(summariseProfile(file, Number(process.argv[3] ?? 25))));
}
