// The backward engine frees the gradients passed between nodes as soon as they are used (Note [Gradients freed as
// they die] in src/autograd/engine.ts): memory is reused within the pass, and every way a user can hold a
// gradient keeps it. Each held gradient is read after further allocations, which reuse freed blocks (in stress
// mode fresh memory is filled with NaN), so a use-after-free shows as a wrong value.
import { describe, expect, it } from 'vitest';
import { Tensor, cpuMemoryStats, getKernelBackend, torch } from '../../src/index.js';
import type { FunctionCtx } from '../../src/autograd/index.js';
import { wasmCPUAllocator } from '../../src/wasm/index.js';

const N = 1000; // 4 KB per float32 gradient: a block of linear memory
const onWasm = getKernelBackend() === 'wasm';

/** Allocates and writes blocks of every size the tests use, so freed blocks are reused and overwritten. */
function churn(): void {
  const keep: Tensor[] = [];
  for (let i = 0; i < 40; i++) keep.push(torch.ones(N).mul_(12345), torch.ones(2, N).mul_(-777), torch.full([N], 5));
  for (const t of keep) t.dispose();
}

/** Every element of `t` equals `v`. */
function expectAll(t: Tensor | null | undefined, v: number): void {
  expect(t).toBeInstanceOf(Tensor);
  const a = (t as Tensor).reshape([-1]).tolist() as number[];
  expect(a.length).toBeGreaterThan(0);
  for (const x of a) expect(x).toBe(v);
}

const leaf = (): Tensor => torch.ones(N).requiresGrad_(true);

/** y = x·2·3·...·(k+1) summed: a chain of k muls whose gradients flow one into the next. */
function chain(x: Tensor, k: number): { out: Tensor; mids: Tensor[] } {
  const mids: Tensor[] = [];
  let y = x;
  for (let i = 2; i <= k + 1; i++) {
    y = y.mul(i);
    mids.push(y);
  }
  return { out: y.sum(), mids };
}

describe('gradients freed as they die', () => {
  it.runIf(onWasm)('a chain of nodes reuses its gradients’ blocks instead of holding one per node', () => {
    const x = leaf();
    const { out } = chain(x, 12);
    const alloc = wasmCPUAllocator()!.runtime.allocator;
    const before = alloc.allocatedBytes;
    const freesBefore = cpuMemoryStats()!.explicitFrees;
    alloc.resetPeakStats();
    out.backward();
    // One gradient of N floats in flight at a time (two while a node runs), not twelve.
    expect(alloc.stats().peakAllocatedBytes - before).toBeLessThanOrEqual(4 * 4 * N + 4096);
    expect(cpuMemoryStats()!.explicitFrees - freesBefore).toBeGreaterThanOrEqual(10);
    churn();
    expectAll(x.grad, 13 * 12 * 11 * 10 * 9 * 8 * 7 * 6 * 5 * 4 * 3 * 2);
  });

  it('a gradient a hook keeps stays readable', () => {
    const x = leaf();
    const { out, mids } = chain(x, 4);
    const seen: Tensor[] = [];
    (mids[1] as Tensor).registerHook((g) => {
      seen.push(g);
    });
    out.backward();
    churn();
    expectAll(seen[0], 5 * 4);
    expectAll(x.grad, 5 * 4 * 3 * 2);
  });

  it('a hook on a leaf, and one that replaces the gradient', () => {
    const x = leaf();
    const seen: Tensor[] = [];
    x.registerHook((g) => {
      seen.push(g);
    });
    const { out, mids } = chain(x, 3);
    (mids[1] as Tensor).registerHook((g) => g.mul(10));
    out.backward();
    churn();
    expectAll(seen[0], 4 * 10 * 3 * 2);
    expectAll(x.grad, 4 * 10 * 3 * 2);
  });

  it('retain_grad keeps every retained gradient', () => {
    const x = leaf();
    const { out, mids } = chain(x, 4);
    for (const m of mids) m.retainGrad();
    out.backward();
    churn();
    expectAll(mids[3]?.grad, 1);
    expectAll(mids[2]?.grad, 5);
    expectAll(mids[1]?.grad, 5 * 4);
    expectAll(mids[0]?.grad, 5 * 4 * 3);
    expectAll(x.grad, 5 * 4 * 3 * 2);
  });

  it('outputs of autograd.grad, for leaves and intermediates, in one pass', () => {
    const x = leaf();
    const { out, mids } = chain(x, 5);
    const [gx, gm1, gm3] = torch.autograd.grad(out, [x, mids[1] as Tensor, mids[3] as Tensor]);
    churn();
    expectAll(gx, 6 * 5 * 4 * 3 * 2);
    expectAll(gm1, 6 * 5 * 4);
    expectAll(gm3, 6);
    expect(x.grad).toBeNull();
  });

  it('create_graph: the gradients are graph tensors a second backward goes through', () => {
    const x = torch.ones(N).mul(2).requiresGrad_(true);
    const y = x.mul(x).mul(x).mul(3).sum(); // 3x³
    const [g] = torch.autograd.grad(y, [x], { create_graph: true }); // 9x²
    churn();
    expectAll(g, 36);
    (g as Tensor).sum().backward(); // 18x
    churn();
    expectAll(x.grad, 36);
    expectAll(g, 36);
  });

  it('.grad accumulated over two passes, and forward tensors saved for backward kept by the user', () => {
    const x = leaf();
    const h = x.mul(3);
    const z = h.mul(h); // saves h twice
    z.sum().backward({ retain_graph: true });
    churn();
    expectAll(x.grad, 18);
    z.sum().backward();
    churn();
    expectAll(x.grad, 36);
    expectAll(h, 3);
    expectAll(z, 9);
  });

  it('one gradient sent to several inputs, and views sharing its storage', () => {
    const a = leaf();
    const b = leaf();
    const s = a.add(b); // AddBackward0 hands the same tensor to both inputs
    const parts = s
      .mul(2)
      .view([2, N / 2])
      .unbind(0); // views of one storage
    const out = parts[0]!.mul(3).sum().add(parts[1]!.mul(5).sum());
    const keep = torch.cat([a, b]).detach().mul(1);
    out.backward();
    churn();
    const ga = a.grad as Tensor;
    const gb = b.grad as Tensor;
    const expected = [...Array<number>(N / 2).fill(6), ...Array<number>(N / 2).fill(10)];
    expect(ga.tolist()).toEqual(expected);
    expect(gb.tolist()).toEqual(expected);
    expectAll(keep, 1);
    // Expand, then a broadcast reduction to the input's shape (validate_outputs' sum_to).
    const c = torch.ones(1, N).requiresGrad_(true);
    c.expand([4, N])
      .mul(torch.full([4, 1], 2))
      .sum()
      .backward();
    churn();
    expectAll(c.grad, 8);
  });

  it('a custom Function that keeps the gradient it is given', () => {
    const kept: Tensor[] = [];
    class Keep extends torch.autograd.Function {
      static override forward(_ctx: FunctionCtx, x: Tensor): Tensor {
        return x.mul(1);
      }
      static override backward(_ctx: FunctionCtx, g: Tensor | null): Tensor | null {
        kept.push(g as Tensor);
        return (g as Tensor).mul(2);
      }
    }
    const x = leaf();
    const y = (Keep.apply(x.mul(3)) as Tensor).mul(5).mul(7).sum();
    y.backward();
    churn();
    expectAll(kept[0], 35);
    expectAll(x.grad, 35 * 2 * 3);
  });
});
