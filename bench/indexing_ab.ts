// Same-process A/B of the Tensor Indexing API (src/api/TensorIndexing.ts) against the operator it ends in:
// `x.index([Slice(), 1])` vs `x.select(1, 1)`, `x.index([Ellipsis, null])` vs `x.unsqueeze(-1)`,
// `x.index([mask])` vs `torch.index(x, [mask])`, `x.index([Slice(), idx])` vs `x.index_select(1, idx)` and
// `y.index_put_([Slice(), 1], 0)` vs `y.select(1, 1).fill_(0)`, on a [64, 32] float32 tensor; microseconds per
// call, medians of 9 batches, both sides alternated over 4 rounds (the overhead of the API is the difference).
// Run: npx tsx bench/indexing_ab.ts

import { torch } from '../src/index.js';

const { Slice, Ellipsis } = torch.indexing;
const med = (f: () => void, n = 2000): number => {
  const r: number[] = [];
  for (let k = 0; k < 9; k++) {
    const s = performance.now();
    for (let i = 0; i < n; i++) f();
    r.push(((performance.now() - s) / n) * 1000);
  }
  return r.sort((a, b) => a - b)[4]!;
};
const x = torch.randn(64, 32);
const y = torch.randn(64, 32);
const mask = x.gt(0);
const idx = torch.tensor([3, 1, 30]);
const pairs: [string, () => unknown, () => unknown][] = [
  ['x[:, 1]', () => x.index([Slice(), 1]), () => x.select(1, 1)],
  ['x[..., None]', () => x.index([Ellipsis, null]), () => x.unsqueeze(-1)],
  ['x[mask]', () => x.index([mask]), () => torch.index(x, [mask])],
  ['x[:, idx]', () => x.index([Slice(), idx]), () => x.index_select(1, idx)],
  ['y[:, 1] = 0', () => y.index_put_([Slice(), 1], 0), () => y.select(1, 1).fill_(0)],
];
const rows = new Map<string, { api: number[]; op: number[] }>();
for (let round = 0; round < 4; round++) {
  for (const [name, api, op] of pairs) {
    const row = rows.get(name) ?? { api: [], op: [] };
    const first = round % 2 === 0;
    const a = first ? med(() => torch.scope(() => void api())) : 0;
    const b = med(() => torch.scope(() => void op()));
    row.api.push(first ? a : med(() => torch.scope(() => void api())));
    row.op.push(b);
    rows.set(name, row);
  }
}
const median = (v: number[]): number => [...v].sort((p, q) => p - q)[Math.floor(v.length / 2)]!;
console.log('expression        API µs   op µs   API/op');
for (const [name, { api, op }] of rows) {
  const a = median(api);
  const o = median(op);
  console.log(`${name.padEnd(16)} ${a.toFixed(2).padStart(7)} ${o.toFixed(2).padStart(7)}   ${(a / o).toFixed(2)}`);
}
