// Snippets run in Node and in Chromium with the same code: the README's "A taste" examples, a training step,
// a custom op through `Library`, and the dispatch trace of `torch.add(x, y)`. Each scenario takes the
// package's namespace (the Node import, or the browser bundle in the page) and returns the lines it prints.
// tools/browser/run.ts runs every scenario in Node on the browser bundle and hands the lines to the page as
// the expected output; the page runs the same scenarios and compares line for line (tools/browser/page.ts).
// test/readme.test.ts runs the README scenarios under vitest and checks their lines against the README's
// claims. No value imports: the page loads this module transpiled, not bundled.

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;

/** One scenario: a name, and the lines it prints when run on a package namespace. */
export interface Scenario {
  readonly name: string;
  readonly run: (aten: Aten) => string[];
}

const json = (v: unknown): string => JSON.stringify(v);

/** The README's first "A taste" snippet, printing what each line gives. */
function readmeTaste(aten: Aten): string[] {
  const { torch } = aten;
  const x = torch.arange(6, { dtype: 'float32' }).view(2, 3);
  const out = [String(x.t())];
  out.push(json(torch.add(x, 1, { alpha: 2 }).tolist()));
  out.push(json(x.sum(1, { keepdim: true }).tolist()));
  const [values, indices] = torch.max(x, 1);
  out.push(json([values.tolist(), indices.tolist()]));
  out.push(String(torch.cross_entropy_loss(x, torch.tensor([2, 0]))));
  const m = torch.empty(8, 1, 28, 28, { device: 'meta' });
  out.push(json(torch.max_pool2d(torch.conv2d(m, torch.empty(4, 1, 3, 3, { device: 'meta' }), null, 1, 1), 2).size()));
  return out;
}

/** The README's autograd snippet. */
function readmeAutograd(aten: Aten): string[] {
  const { torch } = aten;
  const w = torch.tensor(
    [
      [0.5, -1],
      [2, 0.25],
    ],
    { requiresGrad: true },
  );
  const x = torch.tensor(
    [
      [1, 2],
      [3, 4],
    ],
    { dtype: 'float32' },
  );
  const loss = torch.cross_entropy_loss(x.matmul(w.t()), torch.tensor([1, 0]));
  const out = [String(loss)];
  loss.backward();
  out.push(String(w.grad));
  out.push(json(w.grad?.tolist()));
  out.push(String(torch.noGrad(() => x.matmul(w.t())).requiresGrad));
  out.push(json(torch.autograd.grad(w.mul(w).sum(), w).map((g) => g?.tolist())));
  return out;
}

/** A small nn.Module trained by optim.SGD for a few steps: every loss and the final weights, exactly. */
function trainingStep(aten: Aten): string[] {
  const { torch, nn, optim } = aten;
  class Mlp extends nn.Module {
    declare fc1: InstanceType<typeof nn.Linear>;
    declare fc2: InstanceType<typeof nn.Linear>;
    constructor() {
      super();
      this.fc1 = new nn.Linear(4, 8);
      this.fc2 = new nn.Linear(8, 3);
    }
    override forward(x: Tensor): Tensor {
      return this.fc2.call(nn.functional.relu(this.fc1.call(x)));
    }
  }
  torch.manualSeed(0);
  const model = new Mlp();
  const x = torch.randn(16, 4);
  const y = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
  const opt = new optim.SGD(model.parameters(), { lr: 0.1, momentum: 0.9 });
  const out: string[] = [];
  for (let step = 0; step < 5; step++) {
    opt.zero_grad();
    const loss = nn.functional.cross_entropy(model.call(x), y);
    loss.backward();
    opt.step();
    // item() of a float32 is its exact value as a double: equal strings mean equal bits.
    out.push(`step ${step}: loss ${String(loss.item())}`);
  }
  out.push(`fc2.bias ${json(model.fc2.bias?.tolist())}`);
  out.push(`fc1.weight[0] ${json(model.fc1.weight.select(0, 0).tolist())}`);
  return out;
}

/**
 * A custom op as a PyTorch user writes one with torch.library: `def` a schema, `impl` a CPU kernel, `impl`
 * an Autograd kernel (a torch.autograd.Function that redispatches below autograd), call it, backward through
 * it, then remove the library and see the operator gone.
 */
function customOp(aten: Aten): string[] {
  const { torch, Dispatcher, Library, AutoDispatchBelowAutograd } = aten;
  const lib = new Library('DEF', 'browser_demo');
  const out: string[] = [];
  try {
    lib.def('scaled_square(Tensor x, float k) -> Tensor');
    lib.impl('scaled_square', (_ks: unknown, x: Tensor, k: number) => torch.mul(torch.mul(x, x), k), 'CPU');
    const op = Dispatcher.singleton().findSchemaOrThrow('browser_demo::scaled_square');
    const call = op.call as unknown as (x: Tensor, k: number) => Tensor;
    class ScaledSquare extends torch.autograd.Function {
      static override forward(ctx: InstanceType<typeof torch.autograd.FunctionCtx> & { k: number }, x: Tensor, k: number): Tensor {
        ctx.save_for_backward(x);
        ctx.k = k;
        const guard = new AutoDispatchBelowAutograd();
        try {
          return call(x, k);
        } finally {
          guard.release();
        }
      }
      static override backward(ctx: InstanceType<typeof torch.autograd.FunctionCtx> & { k: number }, g: Tensor | null): (Tensor | null)[] {
        const [x] = ctx.saved_tensors;
        return [torch.mul(torch.mul(g as Tensor, x as Tensor), 2 * ctx.k), null];
      }
    }
    lib.impl('scaled_square', (_ks: unknown, x: Tensor, k: number) => ScaledSquare.apply(x, k), 'Autograd');
    out.push(String(op.schema));
    const x = torch.tensor([1, -2, 3], { dtype: 'float32', requires_grad: true });
    const y = call(x, 1.5);
    out.push(String(y));
    y.sum().backward();
    out.push(String(x.grad));
    out.push(`CPU kernel: ${String(op.hasKernelForDispatchKey(aten.DispatchKey.CPU))}`);
  } finally {
    lib.remove();
  }
  out.push(`after remove(): ${String(Dispatcher.singleton().findSchema('browser_demo::scaled_square') !== null)}`);
  return out;
}

/** The dispatch trace of `torch.add(x, y)` and of the same call with a tensor requiring grad. */
function dispatchTrace(aten: Aten): string[] {
  const { torch, setDispatchTraceEnabled, setDispatchTraceSink } = aten;
  const x = torch.ones(2, 3);
  const y = torch.arange(3, { dtype: 'float32' });
  const w = torch.ones(3, { requires_grad: true });
  const lines: string[] = [];
  const previous = setDispatchTraceSink((line) => lines.push(line));
  setDispatchTraceEnabled(true);
  try {
    lines.push('# torch.add(x, y)');
    torch.add(x, y);
    lines.push('# torch.add(x, w), w requires grad');
    torch.add(x, w);
  } finally {
    setDispatchTraceEnabled(false);
    setDispatchTraceSink(previous);
  }
  return lines;
}

/** Every scenario, in the order the page runs them. */
export const scenarios: readonly Scenario[] = [
  { name: "README 'A taste'", run: readmeTaste },
  { name: "README 'A taste': autograd", run: readmeAutograd },
  { name: 'training step: nn.Module + optim.SGD', run: trainingStep },
  { name: 'custom op: Library def + impl (CPU, Autograd) + call + backward', run: customOp },
  { name: 'dispatch trace of torch.add', run: dispatchTrace },
];

/** Runs every scenario: its lines, or the error it threw as one line starting with `threw `. */
export function runScenarios(aten: Aten): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const s of scenarios) {
    try {
      out[s.name] = s.run(aten);
    } catch (e) {
      out[s.name] = [`threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`];
    }
  }
  return out;
}
