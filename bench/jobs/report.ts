// bench/jobs: the pure parts of the jobs report: a row's figures from its rounds, the ratio to PyTorch, the target's
// verdict, the markdown table and where its section goes in RESULTS.md. No timing and no I/O here
// (test/bench/jobs.test.ts covers it).

import { median, replaceSection, sameRoundRatio, sig3 } from '../compare/report.js';
import type { ProfileFigures, RowSpec, RunFigures } from './protocol.js';

/** One row on one thread count: each side's figures per round (undefined: no sample that round), the warm-up losses. */
export interface RowResult {
  aten: (RunFigures | undefined)[];
  torch: (RunFigures | undefined)[];
  atenLosses?: number[];
  torchLosses?: number[];
  /** Why a side has no figures. */
  atenError?: string;
  torchError?: string;
}

const msOf = (f: RunFigures | undefined): number | undefined => f?.ms;

/** LeNet is reported as images/s of the best warm epoch; every other row as the median over rounds. */
function summary(row: RowSpec, figures: (RunFigures | undefined)[]): number | undefined {
  const ms = figures.map(msOf).filter((x): x is number => x !== undefined);
  if (ms.length === 0) return undefined;
  if (row.unit === 'img/s') {
    const best = figures.filter((f): f is RunFigures => f !== undefined).sort((a, b) => a.ms - b.ms)[0]!;
    return (best.images ?? 0) / (best.ms / 1000);
  }
  return median(ms);
}

/** aten-ts time ÷ PyTorch time: best epoch ÷ best epoch for LeNet, the median of same-round ratios otherwise. */
export function ratio(row: RowSpec, r: RowResult): number | undefined {
  if (row.unit === 'img/s') {
    const [a, t] = [summary(row, r.aten), summary(row, r.torch)];
    return a === undefined || t === undefined || a === 0 ? undefined : t / a;
  }
  return sameRoundRatio(r.aten.map(msOf), r.torch.map(msOf));
}

/** A figure in the row's unit (figures arrive in ms per step or per call). */
export function formatFigure(row: RowSpec, figures: (RunFigures | undefined)[]): string {
  const v = summary(row, figures);
  if (v === undefined) return '—';
  switch (row.unit) {
    case 'img/s':
      return `${Math.round(v)} img/s`;
    case 'ns':
      return `${sig3(v * 1e6)} ns`;
    case 'µs':
      return `${sig3(v * 1e3)} µs`;
    default:
      return `${sig3(v)} ms`;
  }
}

/** The target and whether aten-ts meets it: "≤ 1.5× ✓", "≤ 150 ns ✗"; "" without a target or a figure. */
export function verdict(row: RowSpec, r: RowResult): string {
  if ('ratio' in row.target) {
    const q = ratio(row, r);
    return `≤ ${row.target.ratio}×${q === undefined ? '' : q <= row.target.ratio ? ' ✓' : ' ✗'}`;
  }
  if (!Number.isFinite(row.target.abs)) return '';
  const v = summary(row, r.aten);
  const scale = row.unit === 'ns' ? 1e6 : row.unit === 'µs' ? 1e3 : 1;
  const unit = row.unit === 'img/s' ? ' img/s' : ` ${row.unit}`;
  return `≤ ${row.target.abs}${unit}${v === undefined ? '' : v * scale <= row.target.abs ? ' ✓' : ' ✗'}`;
}

/** The loss after the first and the last warm-up step, 5 significant digits: "2.3077 → 2.3073". */
export function formatLosses(losses: readonly number[] | undefined): string {
  if (losses === undefined || losses.length === 0) return '—';
  const f = (x: number | null) => (x === null ? 'nan' : x.toPrecision(5));
  return losses.length === 1 ? f(losses[0]!) : `${f(losses[0]!)} → ${f(losses.at(-1)!)}`;
}

/** Collections or faults per step over all rounds (sum ÷ sum); "—" when the side did not count them. */
export function perStep(figures: (RunFigures | undefined)[], key: 'gc' | 'faults'): string {
  let count = 0;
  let steps = 0;
  for (const f of figures) {
    if (f?.[key] === undefined) continue;
    count += f[key];
    steps += f.steps;
  }
  if (steps === 0) return '—';
  const v = count / steps;
  return v === 0 ? '0' : sig3(v);
}

export const TABLE_HEAD =
  '| job | threads | aten-ts | PyTorch | ratio | target | loss aten-ts | loss PyTorch | GCs/step | faults/step |\n' +
  '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|';

/** One table line. */
export function tableRow(row: RowSpec, threads: number | undefined, r: RowResult): string {
  const q = ratio(row, r);
  const a = r.atenError === undefined ? formatFigure(row, r.aten) : 'fails';
  const t = r.torchError === undefined ? formatFigure(row, r.torch) : 'fails';
  const cells = [
    row.label,
    threads === undefined ? '—' : String(threads),
    a,
    t,
    q === undefined ? '—' : `${sig3(q)}×`,
    verdict(row, r),
    formatLosses(r.atenLosses),
    formatLosses(r.torchLosses),
    perStep(r.aten, 'gc'),
    perStep(r.aten, 'faults'),
  ];
  return `| ${cells.join(' | ')} |`;
}

/**
 * `doc` with the section `heading` replaced by `body`; when there is none, the section goes before the first `## `
 * heading (after the intro), or at the end of a document without one.
 */
export function placeSection(doc: string, heading: string, body: string): string {
  const lines = doc.split('\n');
  if (lines.some((l) => l.trimEnd() === heading)) return replaceSection(doc, heading, body);
  const first = lines.findIndex((l) => /^## /.test(l));
  if (first < 0) return replaceSection(doc, heading, body);
  return [...lines.slice(0, first), heading, '', body.trim(), '', ...lines.slice(first)].join('\n');
}

/**
 * `--profile`: one job on one thread count, operator by operator (self CPU time per step under each side's
 * torch.profiler): the `limit` operators that take aten-ts the most, then the rest summed, then the step.
 */
export function profileTable(label: string, aten: ProfileFigures | undefined, torch: ProfileFigures | undefined, limit = 10): string {
  const a = aten?.ops ?? {};
  const t = torch?.ops ?? {};
  const selfTotal = (ops: ProfileFigures['ops']): number => Object.values(ops).reduce((s, o) => s + o.self_ms, 0);
  const [aTotal, tTotal] = [selfTotal(a), selfTotal(t)];
  const keys = Object.keys(a).sort((x, y) => (a[y]?.self_ms ?? 0) - (a[x]?.self_ms ?? 0));
  const top = keys.slice(0, limit);
  // Operators PyTorch spends much time in that aten-ts does not call (a fused operator on one side only).
  const torchOnly = Object.keys(t)
    .filter((k) => a[k] === undefined && (t[k]?.self_ms ?? 0) >= 0.05 * tTotal)
    .sort((x, y) => (t[y]?.self_ms ?? 0) - (t[x]?.self_ms ?? 0));
  const f = (ms: number | undefined): string => (ms === undefined ? '—' : sig3(ms));
  const calls = (c: number | undefined): string => (c === undefined ? '—' : sig3(c));
  const ratioOf = (x: number | undefined, y: number | undefined): string =>
    x === undefined || y === undefined || y === 0 ? '—' : `${sig3(x / y)}×`;
  const share = (ms: number): string => (aTotal === 0 ? '—' : `${Math.round((100 * ms) / aTotal)}%`);
  const row = (
    name: string,
    x: { self_ms: number; calls: number } | undefined,
    y: { self_ms: number; calls: number } | undefined,
  ): string =>
    `| ${name} | ${f(x?.self_ms)} | ${calls(x?.calls)} | ${f(y?.self_ms)} | ${calls(y?.calls)} | ${ratioOf(x?.self_ms, y?.self_ms)} | ${x === undefined ? '—' : share(x.self_ms)} |`;
  const rest = (ops: ProfileFigures['ops'], skip: Set<string>): { self_ms: number; calls: number } => {
    let [ms, n] = [0, 0];
    for (const [k, o] of Object.entries(ops)) if (!skip.has(k)) [ms, n] = [ms + o.self_ms, n + o.calls];
    return { self_ms: ms, calls: n };
  };
  const shown = new Set([...top, ...torchOnly]);
  return [
    `**${label}** (ms per step; aten-ts ${f(aten?.step_ms)} ms and PyTorch ${f(torch?.step_ms)} ms a step while profiled)`,
    '',
    '| operator | aten-ts ms | calls | PyTorch ms | calls | ratio | share of aten-ts |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...top.map((k) => row(`\`${k}\``, a[k], t[k])),
    ...torchOnly.map((k) => row(`\`${k}\` (PyTorch only)`, undefined, t[k])),
    row('all other operators', rest(a, shown), rest(t, shown)),
    row(
      'all operators (self time)',
      { self_ms: aTotal, calls: rest(a, new Set()).calls },
      { self_ms: tTotal, calls: rest(t, new Set()).calls },
    ),
  ].join('\n');
}
