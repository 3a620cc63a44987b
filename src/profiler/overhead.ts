// aten-ts's addition to the profiler: where each operator call's time goes between the Python-style front end
// and the kernel — argument parsing, key-set extraction, table lookup, autograd bookkeeping, and the kernel's
// own time — per operator, from the phases the dispatcher's observed path measures (Note [Dispatch phase
// timing] in src/dispatch/debug.ts). No PyTorch counterpart: its profiler shows operators, not the dispatcher.

import { PHASES, type FunctionEventAvg } from './profiler_util.js';

const HEADERS = ['Name', '# of Calls', 'Arg parsing', 'Key extract', 'Table lookup', 'Autograd', 'Kernel', 'Dispatch %'];

/** `ns` with three significant figures: `412ns`, `1.23us`, `15.2ms`. */
function fmtNs(us: number): string {
  const ns = us * 1000;
  if (ns < 1000) return `${ns.toFixed(0)}ns`;
  if (us < 1000) return `${us.toPrecision(3)}us`;
  return `${(us / 1000).toPrecision(3)}ms`;
}

/**
 * The table: one row per operator with its mean time per call in each phase, and "Dispatch %", the share of
 * argument parsing, extraction and lookup in the call's own time (phases summed); a last row over all calls.
 * Rows are sorted by total time, largest first.
 */
export function overheadTable(rows: readonly FunctionEventAvg[], rowLimit: number): string {
  const sum = (r: { phases: Record<(typeof PHASES)[number], number> }) => PHASES.reduce((s, k) => s + r.phases[k], 0);
  const sorted = rows.filter((r) => r.count > 0).sort((a, b) => sum(b) - sum(a));
  const all = { key: 'all calls', count: 0, phases: { parse: 0, extract: 0, lookup: 0, autograd: 0, kernel: 0 } };
  for (const r of sorted) {
    all.count += r.count;
    for (const k of PHASES) all.phases[k] += r.phases[k];
  }
  const line = (r: { key: string; count: number; phases: Record<(typeof PHASES)[number], number> }) => {
    const total = sum(r);
    const dispatch = r.phases.parse + r.phases.extract + r.phases.lookup;
    return [
      r.key,
      String(r.count),
      ...PHASES.map((k) => fmtNs(r.phases[k] / r.count)),
      total === 0 ? 'NaN' : `${((100 * dispatch) / total).toFixed(2)}%`,
    ];
  };
  const body = [...sorted.slice(0, rowLimit).map(line), ...(all.count > 0 ? [line(all)] : [])];
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)) + 2);
  const fmt = (cells: readonly string[]) => cells.map((c, i) => c.padStart(widths[i] as number)).join('  ');
  const sep = widths.map((w) => '-'.repeat(w)).join('  ');
  const out = [
    'Dispatch overhead per call (mean per call; measured on the observed dispatch path, see Note [Dispatch phase timing])',
    sep,
    fmt(HEADERS),
    sep,
    ...body.slice(0, -1).map(fmt),
    sep,
    ...body.slice(-1).map(fmt),
  ];
  return out.map((l) => `${l}\n`).join('');
}
