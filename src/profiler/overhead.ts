// aten-ts's addition to the profiler: where each operator call's time goes between the Python-style front end
// and the kernel — argument parsing, key-set extraction, table lookup, autograd bookkeeping, and the kernel's
// own time — per operator, from the phases the dispatcher's observed path measures (Note [Dispatch phase
// timing] in src/dispatch/debug.ts). No PyTorch counterpart: its profiler shows operators, not the dispatcher.

import { PHASES, type FunctionEvent } from './profiler_util.js';

const HEADERS = ['Name', '# of Calls', 'Arg parsing', 'Key extract', 'Table lookup', 'Autograd', 'Kernel', 'Dispatch %'];

/** `ns` with three significant figures: `412ns`, `1.23us`, `15.2ms`. */
function fmtNs(us: number): string {
  const ns = us * 1000;
  if (ns < 1000) return `${ns.toFixed(0)}ns`;
  if (us < 1000) return `${us.toPrecision(3)}us`;
  return `${(us / 1000).toPrecision(3)}ms`;
}

type Phases = Record<(typeof PHASES)[number], number>;

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/**
 * The table: one row per operator with the median time per call of each phase (medians, not means: a garbage
 * collection inside one call would otherwise dominate a phase of a few hundred nanoseconds), and "Dispatch %",
 * the share of argument parsing, extraction and lookup in the sum of the medians; a last row over all calls.
 * Rows are sorted by the number of calls times that sum, largest first.
 */
export function overheadTable(events: readonly FunctionEvent[], rowLimit: number): string {
  const groups = new Map<string, FunctionEvent[]>();
  for (const e of events) {
    const g = groups.get(e.name);
    if (g === undefined) groups.set(e.name, [e]);
    else g.push(e);
  }
  const row = (key: string, evs: readonly FunctionEvent[]) => {
    const phases = {} as Phases;
    for (const k of PHASES) phases[k] = median(evs.map((e) => e.phases[k]));
    return { key, count: evs.length, phases, total: PHASES.reduce((s, k) => s + phases[k], 0) };
  };
  const sorted = [...groups].map(([k, evs]) => row(k, evs)).sort((a, b) => b.count * b.total - a.count * a.total);
  const line = (r: ReturnType<typeof row>) => {
    const dispatch = r.phases.parse + r.phases.extract + r.phases.lookup;
    return [
      r.key,
      String(r.count),
      ...PHASES.map((k) => fmtNs(r.phases[k])),
      r.total === 0 ? 'NaN' : `${((100 * dispatch) / r.total).toFixed(2)}%`,
    ];
  };
  const body = [...sorted.slice(0, rowLimit).map(line), ...(events.length > 0 ? [line(row('all calls', events))] : [])];
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)) + 2);
  const fmt = (cells: readonly string[]) => cells.map((c, i) => c.padStart(widths[i] as number)).join('  ');
  const sep = widths.map((w) => '-'.repeat(w)).join('  ');
  const out = [
    'Dispatch overhead per call (median per call; measured on the observed dispatch path, see Note [Dispatch phase timing])',
    sep,
    fmt(HEADERS),
    sep,
    ...body.slice(0, -1).map(fmt),
    sep,
    ...body.slice(-1).map(fmt),
  ];
  return out.map((l) => `${l}\n`).join('');
}
