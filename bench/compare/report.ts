// bench/compare: the pure parts of the side-by-side report: medians, same-round ratios, time units, the markdown table
// and the RESULTS.md section. No timing and no I/O here (test/bench/compare.test.ts covers it).

import { LABELS, SYSTEMS, SYSTEM_TITLES, type SystemId, type WorkloadId } from './protocol.js';

/** One system's figures for one workload: a sample per round (ns per call; undefined = no sample that round). */
export interface Cell {
  samples: (number | undefined)[];
  /**
   * Per sample (the run request), from the worker's /proc schedstat: its threads' CPU time and their time
   * runnable but waiting for a CPU, in ns, and that wait for its busiest threads alone (as many as the system
   * has compute threads; Note [Waiting for a CPU] in bench/compare.ts).
   */
  sched?: ({ wallNs: number; cpuNs: number; waitNs: number; busiestWaitNs?: number } | undefined)[];
  /** Why there are no figures: `unsupported`/`unavailable` print "—", `fails` prints "fails". */
  status?: 'unsupported' | 'unavailable' | 'fails';
  reason?: string;
  note?: string;
}

export type Results = Partial<Record<WorkloadId, Partial<Record<SystemId, Cell>>>>;

/** Median of the defined values (mean of the middle two for an even count); undefined when there are none. */
export function median(values: readonly (number | undefined)[]): number | undefined {
  const xs = values.filter((v): v is number => v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return undefined;
  const mid = xs.length >> 1;
  return xs.length % 2 === 1 ? xs[mid] : (xs[mid - 1]! + xs[mid]!) / 2;
}

/** Median over rounds of num[r] ÷ den[r], using only the rounds where both have a sample. */
export function sameRoundRatio(num: readonly (number | undefined)[], den: readonly (number | undefined)[]): number | undefined {
  const ratios: number[] = [];
  for (let r = 0; r < Math.min(num.length, den.length); r++) {
    const [a, b] = [num[r], den[r]];
    if (a !== undefined && b !== undefined && b > 0) ratios.push(a / b);
  }
  return median(ratios);
}

/** Three significant digits, without exponent notation (0.0123, 1.23, 12.3, 123, 1234). */
export function sig3(x: number): string {
  if (x === 0) return '0';
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x))));
  return x.toFixed(Math.min(digits, 6));
}

/** A time given in ns, in ns, µs, ms or s. */
export function formatTime(ns: number): string {
  if (ns < 1e3) return `${sig3(ns)} ns`;
  if (ns < 1e6) return `${sig3(ns / 1e3)} µs`;
  if (ns < 1e9) return `${sig3(ns / 1e6)} ms`;
  return `${sig3(ns / 1e9)} s`;
}

/** GFLOP/s of an n×n by n×n matrix multiply that took `ns`. */
export const matmulGflops = (n: number, ns: number): number => (2 * n ** 3) / ns;

/** A cell's text: the median time (and GFLOP/s for matmul), "—" or "fails". */
export function formatCell(workload: WorkloadId, cell: Cell | undefined, matmulN: number): string {
  if (cell === undefined || cell.status === 'unsupported' || cell.status === 'unavailable') return '—';
  if (cell.status === 'fails') return 'fails';
  const m = median(cell.samples);
  if (m === undefined) return '—';
  return workload === 'matmul_1024' || workload === 'matmul_256'
    ? `${formatTime(m)} (${sig3(matmulGflops(matmulN, m))} GFLOP/s)`
    : formatTime(m);
}

export interface TableOptions {
  workloads: readonly WorkloadId[];
  matmulN: number;
  /** n of the small matmul workload (matmul_256). */
  matmulSmallN?: number;
  /** Label of each workload row (default: protocol's LABELS). */
  labels?: Partial<Record<WorkloadId, string>>;
}

/** The markdown table: one row per workload, a column per system, then aten-ts ÷ torch on 1 and on 2 threads. */
export function markdownTable(results: Results, options: TableOptions): string {
  const head = `| workload | ${SYSTEMS.map((s) => SYSTEM_TITLES[s]).join(' | ')} | ratio 1 thr | ratio 2 thr |`;
  const rule = `|---|${SYSTEMS.map(() => '---:').join('|')}|---:|---:|`;
  const rows = options.workloads.map((w) => {
    const byStem = results[w] ?? {};
    const cells = SYSTEMS.map((s) => formatCell(w, byStem[s], w === 'matmul_256' ? (options.matmulSmallN ?? 256) : options.matmulN));
    const ratioOf = (a: Cell | undefined, t: Cell | undefined): string => {
      const r =
        a !== undefined && t !== undefined && a.status === undefined && t.status === undefined
          ? sameRoundRatio(a.samples, t.samples)
          : undefined;
      return r === undefined ? '—' : sig3(r);
    };
    const [r1, r2] = [ratioOf(byStem['aten-ts'], byStem.torch1), ratioOf(byStem.aten2, byStem.torch2)];
    return `| ${options.labels?.[w] ?? LABELS[w]} | ${cells.join(' | ')} | ${r1} | ${r2} |`;
  });
  return [head, rule, ...rows].join('\n');
}

/** The notes under the table: each cell's note, failure or reason for "—", as "- system, workload: text". */
export function cellNotes(results: Results, workloads: readonly WorkloadId[]): string[] {
  const notes: string[] = [];
  for (const w of workloads) {
    for (const s of SYSTEMS) {
      const cell = results[w]?.[s];
      if (cell === undefined || cell.status === 'unavailable') continue;
      const text =
        cell.status === 'fails' ? `fails: ${cell.reason ?? '?'}` : cell.status === 'unsupported' ? `— ${cell.reason ?? ''}` : cell.note;
      if (text !== undefined && text !== '') notes.push(`- ${SYSTEM_TITLES[s]}, ${LABELS[w]}: ${text}`);
    }
  }
  return notes;
}

/**
 * `doc` with the section headed `heading` (a `## ` line) replaced by `body`, up to the next `## ` heading or the end;
 * appended after a blank line when there is no such section. Other sections are kept byte for byte.
 */
export function replaceSection(doc: string, heading: string, body: string): string {
  const lines = doc.split('\n');
  const start = lines.findIndex((l) => l.trimEnd() === heading);
  const section = `${heading}\n\n${body.trim()}\n`;
  if (start < 0) return `${doc.replace(/\n*$/, '')}\n\n${section}`;
  let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  if (end < 0) end = lines.length;
  const before = lines.slice(0, start).join('\n');
  const after = lines.slice(end).join('\n');
  return `${before}${before === '' ? '' : '\n'}${section}${after === '' ? '' : `\n${after}`}`;
}
