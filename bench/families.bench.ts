// Per operator family: the 1-element call overhead through the whole path (generated front end, dispatcher,
// kernel, result allocation) and the throughput on 10^6 contiguous float32 elements.
// Run: npx tsx bench/families.bench.ts   (or npm run bench -- families)
import { bench, do_not_optimize, run, summary } from 'mitata';
import { torch } from '../src/api/index.js';

const N = 1_000_000;
const a1 = torch.tensor([1.5]);
const b1 = torch.tensor([2.5]);
const i1 = torch.tensor([0]);
const m1 = torch.tensor([[1.5]]);
const a = torch.rand(N);
const b = torch.rand(N);
const m = torch.rand(1000, 1000);
const idx = torch.randperm(N);
const rows = torch.randint(0, 1000, [1000]);

summary(() => {
  bench('1 element: binary  torch.add', () => do_not_optimize(torch.add(a1, b1)));
  bench('1 element: binary  torch.mul', () => do_not_optimize(torch.mul(a1, b1)));
  bench('1 element: powdiv  torch.pow(t, 2)', () => do_not_optimize(torch.pow(a1, 2)));
  bench('1 element: unary   torch.exp', () => do_not_optimize(torch.exp(a1)));
  bench('1 element: unary   torch.relu', () => do_not_optimize(torch.relu(a1)));
  bench('1 element: compare torch.gt', () => do_not_optimize(torch.gt(a1, b1)));
  bench('1 element: compare torch.where', () => do_not_optimize(torch.where(torch.gt(a1, 0), a1, b1)));
  bench('1 element: reduce  torch.sum', () => do_not_optimize(torch.sum(a1)));
  bench('1 element: reduce  torch.amax(t, 0)', () => do_not_optimize(torch.amax(a1, 0)));
  bench('1 element: linalg  torch.mm', () => do_not_optimize(torch.mm(m1, m1)));
  bench('1 element: nn      torch.softmax', () => do_not_optimize(torch.softmax(a1, 0)));
  bench('1 element: index   torch.index_select', () => do_not_optimize(torch.index_select(a1, 0, i1)));
  bench('1 element: shape   x.view(1)', () => do_not_optimize(a1.view(1)));
});
summary(() => {
  bench('10^6: binary  add', () => do_not_optimize(torch.add(a, b)));
  bench('10^6: binary  mul', () => do_not_optimize(torch.mul(a, b)));
  bench('10^6: powdiv  pow(t, 2)', () => do_not_optimize(torch.pow(a, 2)));
  bench('10^6: powdiv  div', () => do_not_optimize(torch.div(a, b)));
  bench('10^6: unary   exp', () => do_not_optimize(torch.exp(a)));
  bench('10^6: unary   relu', () => do_not_optimize(torch.relu(a)));
  bench('10^6: unary   tanh', () => do_not_optimize(torch.tanh(a)));
  bench('10^6: compare gt', () => do_not_optimize(torch.gt(a, b)));
  bench('10^6: compare maximum', () => do_not_optimize(torch.maximum(a, b)));
  bench('10^6: reduce  sum', () => do_not_optimize(torch.sum(a)));
  bench('10^6: reduce  amax', () => do_not_optimize(torch.amax(a, 0)));
  bench('10^6: reduce  sum(1000x1000, dim 1)', () => do_not_optimize(torch.sum(m, 1)));
  bench('10^6: reduce  cumsum', () => do_not_optimize(torch.cumsum(a, 0)));
  bench('10^6: nn      softmax(1000x1000, 1)', () => do_not_optimize(torch.softmax(m, 1)));
  bench('10^6: index   index_select (permutation)', () => do_not_optimize(torch.index_select(a, 0, idx)));
  bench('10^6: index   index_select rows of 1000x1000', () => do_not_optimize(torch.index_select(m, 0, rows)));
  bench('10^6: shape   contiguous() of a transpose', () => do_not_optimize(m.t().contiguous()));
});

await run();
