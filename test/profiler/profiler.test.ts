// torch.profiler: the table text against PyTorch's own _build_table (test/golden/profiler.json, written by
// tools/golden/gen_profiler.py from fixed event times), and live profiles of real calls: events, nesting,
// shapes, the Chrome trace, the dispatch overhead split, and that nothing stays installed after stop().
import { afterEach, describe, expect, it } from 'vitest';
import { hooks } from '../../src/dispatch/debug.js';
import { torch } from '../../src/index.js';
import { FunctionEvent, ProfilerActivity, profile, record_function, setTraceFileWriter } from '../../src/profiler/index.js';
import { buildTable, keyAverages, type SortBy } from '../../src/profiler/profiler_util.js';
import { loadGolden } from '../golden.js';

type Spec = [string, number, number, number[][], number, boolean];
const G = loadGolden<{
  events: Spec[];
  cases: { group_by_input_shape: boolean; sort_by: SortBy | null; row_limit: number; table: string }[];
}>('profiler.json');

function build(specs: Spec[]): FunctionEvent[] {
  const evs: FunctionEvent[] = [];
  for (const [name, start, end, shapes, parent, user] of specs) {
    const p = parent >= 0 ? (evs[parent] as FunctionEvent) : null;
    const e = new FunctionEvent(name, '', shapes, start, p, user);
    e.end = end;
    p?.cpu_children.push(e);
    evs.push(e);
  }
  return evs;
}

afterEach(() => setTraceFileWriter(null));

describe("key_averages().table() prints PyTorch's text", () => {
  it.each(G.cases.map((c, i) => [i, c] as const))('case %i', (_, c) => {
    const rows = keyAverages(build(G.events), c.group_by_input_shape);
    expect(buildTable(rows, { sort_by: c.sort_by, row_limit: c.row_limit })).toBe(c.table);
  });
});

describe('profiling real calls', () => {
  it('records operator calls with shapes, nesting under record_function, self <= total', () => {
    const x = torch.ones(2, 3);
    const prof = new profile({ activities: [ProfilerActivity.CPU], record_shapes: true }).start();
    record_function('block', () => {
      torch.add(x, x);
      torch.add(x, x);
      x.matmul(x.t()).sum();
    });
    prof.stop();
    const events = prof.events();
    const block = events.find((e) => e.name === 'block')!;
    expect(block.is_user_annotation).toBe(true);
    const adds = events.filter((e) => e.name === 'aten::add');
    expect(adds).toHaveLength(2);
    expect(adds[0]!.overload_name).toBe('Tensor');
    expect(adds[0]!.input_shapes).toEqual([[2, 3], [2, 3], []]);
    expect(adds[0]!.cpu_parent).toBe(block);
    for (const e of events) {
      expect(e.self_cpu_time_total).toBeLessThanOrEqual(e.cpu_time_total + 1e-9);
      expect(e.end).toBeGreaterThanOrEqual(e.start);
    }
    const avg = prof.key_averages();
    expect(avg.find((r) => r.key === 'aten::add')!.count).toBe(2);
    const text = avg.table({ sort_by: 'cpu_time_total', row_limit: 3 });
    expect(text.split('\n')[1]).toMatch(/^ +Name {4}Self CPU % {6}Self CPU {3}CPU total % {5}CPU total {2}CPU time avg {4}# of Calls {2}$/);
    expect(text.split('\n')[3]).toMatch(/^ +block /); // the outermost range has the largest total
    expect(text).toMatch(/\nSelf CPU time total: [\d.]+(us|ms|s)\n$/);
    const byShape = prof.key_averages({ group_by_input_shape: true }).table();
    expect(byShape).toContain('[[2, 3], [2, 3], []]');
    expect(byShape).toContain('Input Shapes');
  });

  it("runs the README's example: using blocks for the profiler and a record_function range", () => {
    const model = new torch.nn.Linear(4, 2);
    const x = torch.ones(3, 4);
    const prof = new profile({ activities: ['CPU'], record_shapes: true });
    {
      using _p = prof.start();
      using _r = record_function('forward');
      model.call(x);
    }
    const forward = prof.events().find((e) => e.name === 'forward')!;
    expect(forward.cpu_children.map((e) => e.name)).toContain('aten::linear');
    expect(prof.key_averages().table({ sort_by: 'cpu_time_total', row_limit: 10 }).split('\n')[3]).toMatch(/^ +forward /);
    expect(hooks.active).toBe(false);
  });

  it('leaves the dispatcher unobserved after stop(), also with `using`', () => {
    expect(hooks.active).toBe(false);
    {
      using prof = new profile({ dispatch_overhead: true }).start();
      expect(hooks.active).toBe(true);
      torch.ones(1).add(1);
      expect(prof.events().length).toBeGreaterThan(0);
    }
    expect(hooks.active).toBe(false);
  });

  it('exports the Chrome trace format (ph X events, ts/dur in microseconds) as text and through the file writer', () => {
    const prof = new profile({ record_shapes: true });
    prof.run(() => record_function('step', () => torch.ones(3).mul(2)));
    const trace = JSON.parse(prof.export_chrome_trace()) as { traceEvents: Record<string, unknown>[] };
    const complete = trace.traceEvents.filter((e) => e.ph === 'X');
    expect(complete.map((e) => e.name)).toContain('step');
    expect(complete.map((e) => e.name)).toContain('aten::mul');
    for (const e of complete) {
      expect(typeof e.ts).toBe('number');
      expect(e.dur as number).toBeGreaterThanOrEqual(0);
      expect(e.pid).toBe(1);
      expect(e.tid).toBe(1);
    }
    const step = complete.find((e) => e.name === 'step')!;
    const mul = complete.find((e) => e.name === 'aten::mul')!;
    expect(mul.ts as number).toBeGreaterThanOrEqual(step.ts as number);
    expect(mul.cat).toBe('cpu_op');
    expect(step.cat).toBe('user_annotation');
    expect(() => prof.export_chrome_trace('/tmp/x.json')).toThrow(/needs the Node entry/);
    const written: [string, string][] = [];
    setTraceFileWriter((p, t) => written.push([p, t]));
    prof.export_chrome_trace('trace.json');
    expect(written[0]![0]).toBe('trace.json');
    expect(JSON.parse(written[0]![1])).toEqual(trace);
  });

  it('splits each call into argument parsing, extraction, lookup, autograd and kernel', () => {
    const a = torch.ones(8, { requires_grad: true });
    const prof = new profile({ dispatch_overhead: true });
    prof.run(() => {
      for (let i = 0; i < 20; i++) torch.mul(a, 2);
    });
    const muls = prof.events().filter((e) => e.name === 'aten::mul');
    expect(muls).toHaveLength(20);
    for (const e of muls) {
      expect(e.phases.parse).toBeGreaterThan(0); // torch.mul is a generated front end
      for (const v of Object.values(e.phases)) expect(v).toBeGreaterThanOrEqual(0);
      expect(e.phases.autograd).toBeGreaterThan(0); // requires_grad: the autograd kernel records a node
      expect(e.phases.kernel).toBeGreaterThan(0);
    }
    const table = prof.dispatch_overhead_table();
    expect(table).toContain('Arg parsing');
    expect(table).toMatch(/\n +aten::mul +20 /);
    expect(table).toMatch(/\n +all calls +\d+ /);
    expect(() => new profile().dispatch_overhead_table()).toThrow(/dispatch_overhead: true/);
  });

  it("rejects unknown option keys and activities aten-ts doesn't have", () => {
    expect(() => new profile({ record_shape: true } as never)).toThrow(/unexpected keyword argument 'record_shape'/);
    expect(() => new profile({ activities: [ProfilerActivity.CUDA] })).toThrow(/CUDA is not available/);
    const p = new profile().start();
    expect(() => new profile().start()).toThrow(/already running/);
    p.stop();
    expect(() => p.key_averages({ group_by_input_shape: true })).toThrow(/record_shapes/);
  });
});
