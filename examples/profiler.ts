// torch.profiler on a small model: per-operator calls with shapes, PyTorch's table, a Chrome trace, and the
// dispatcher's own time split per call (an aten-ts addition). Run: `npx tsx examples/profiler.ts`.
import { torch } from 'aten-ts';

export interface ProfilerExample {
  /** `key: calls` of the model's own operators and the `forward` block, sorted by key (counts do not depend on timing). */
  readonly calls: readonly string[];
  /** The header line of `key_averages().table()`. */
  readonly header: string;
  /** How many complete ('X') events the Chrome trace holds, and whether `forward` is one of them. */
  readonly traceEvents: number;
  readonly traceHasForward: boolean;
  /** The operators of the dispatch-overhead table, in its order. */
  readonly overheadOps: readonly string[];
}

export function profilerExample(): ProfilerExample {
  torch.manual_seed(0);
  const model = new torch.nn.Sequential(new torch.nn.Linear(8, 16), new torch.nn.ReLU(), new torch.nn.Linear(16, 2));
  const x = torch.randn(4, 8);
  const prof = torch.profiler.profile({ activities: ['CPU'], record_shapes: true }); // with or without `new`
  prof.run(() => {
    torch.profiler.record_function('forward', () => model.call(x));
  });
  const shown = new Set(['aten::linear', 'aten::addmm', 'aten::relu', 'forward']);
  const rows = [...prof.key_averages()]
    .filter((r) => shown.has(r.key))
    .map((r) => `${r.key}: ${r.count}`)
    .sort();
  const table = prof.key_averages().table({ sort_by: 'cpu_time_total', row_limit: 10 });
  const header = table.split('\n').find((l) => l.includes('Name')) ?? '';
  const trace = JSON.parse(prof.export_chrome_trace()) as { traceEvents: { ph: string; name: string }[] };
  const complete = trace.traceEvents.filter((e) => e.ph === 'X');

  const split = new torch.profiler.profile({ dispatch_overhead: true });
  const a = torch.ones(1);
  split.run(() => {
    for (let i = 0; i < 100; i++) torch.add(a, a);
  });
  const overheadOps = split
    .dispatch_overhead_table()
    .split('\n')
    .map((l) => /^\s*(aten::\w+)\s/.exec(l)?.[1])
    .filter((k): k is string => k !== undefined);
  return {
    calls: rows,
    header: header
      .trim()
      .split(/\s{2,}/)
      .join(' | '),
    traceEvents: complete.length,
    traceHasForward: complete.some((e) => e.name === 'forward'),
    overheadOps,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = profilerExample();
  for (const line of r.calls) console.log(line);
  console.log(`table header: ${r.header}`);
  console.log(`chrome trace: ${r.traceEvents} complete events, forward among them: ${r.traceHasForward}`);
  console.log(`dispatch overhead rows: ${r.overheadOps.join(', ')}`);
}
