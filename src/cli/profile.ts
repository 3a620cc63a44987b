// `npm start -- --profile`: which operators a run calls, the time per operator family and an estimate of the
// dispatcher's share, from the dispatcher's call observers (src/dispatch/debug.ts). Node only.

import { addDispatchObserver, type DispatchEvent } from '../dispatch/index.js';
import { torch } from '../node.js';

interface Row {
  calls: number;
  ms: number;
}

/** The operator family of `aten::max_pool2d_with_indices.out`: `max_pool2d_with_indices`. */
function family(op: string): string {
  const name = op.slice(op.indexOf('::') + 2);
  const dot = name.indexOf('.');
  return dot < 0 ? name : name.slice(0, dot);
}

/** The wall time of one minimal dispatched call (a 1-element add), in milliseconds: the best of 10 batches. */
function minimalCallMs(): number {
  const a = torch.ones(1);
  const b = torch.ones(1);
  const n = 20000;
  let best = Infinity;
  for (let r = 0; r < 10; r++) {
    const t = performance.now();
    for (let i = 0; i < n; i++) torch.add(a, b);
    best = Math.min(best, (performance.now() - t) / n);
  }
  return best;
}

/** Starts counting; `stop` prints the table. Top-level calls (depth 0) are timed inclusively. */
export function startProfile(): { stop(print: (line: string) => void): void } {
  const perCall = minimalCallMs();
  const rows = new Map<string, Row>();
  const starts: number[] = [];
  let allCalls = 0;
  const t0 = performance.now();
  const remove = addDispatchObserver({
    onEnter(e: DispatchEvent) {
      allCalls++;
      starts[e.depth] = performance.now();
    },
    onExit(e: DispatchEvent) {
      const ms = performance.now() - (starts[e.depth] ?? 0);
      const key = family(e.op);
      const row = rows.get(key) ?? { calls: 0, ms: 0 };
      row.calls++;
      if (e.depth === 0) row.ms += ms;
      rows.set(key, row);
    },
  });
  return {
    stop(print) {
      remove();
      const total = performance.now() - t0;
      const inOps = [...rows.values()].reduce((s, r) => s + r.ms, 0);
      print('\nprofile (with observers on, which slow every call; times are inclusive of nested calls)');
      print(`${'operator family'.padEnd(34)}${'calls'.padStart(10)}${'top-level ms'.padStart(14)}${'share'.padStart(8)}`);
      const sorted = [...rows.entries()].sort((x, y) => y[1].ms - x[1].ms || y[1].calls - x[1].calls);
      for (const [name, r] of sorted.slice(0, 25)) {
        print(
          `${name.padEnd(34)}${String(r.calls).padStart(10)}${r.ms.toFixed(1).padStart(14)}${((100 * r.ms) / total).toFixed(1).padStart(7)}%`,
        );
      }
      if (sorted.length > 25) print(`… ${sorted.length - 25} more families`);
      const dispatchMs = allCalls * perCall;
      print(
        `${allCalls} dispatched calls (${rows.size} families); ${inOps.toFixed(0)} ms of ${total.toFixed(0)} ms inside operators; ` +
          `dispatch overhead ≤ ${allCalls} × ${(perCall * 1000).toFixed(2)} µs (a 1-element add, measured now) = ` +
          `${dispatchMs.toFixed(0)} ms (${((100 * dispatchMs) / total).toFixed(1)}%)`,
      );
    },
  };
}
