// conv2d's forward + backward taken apart: CPU time (user + system) of each piece, the least of 7 batches of 20
// calls, each call in torch.scope (memory reused). Run: npx tsx bench/conv_parts.ts [n,c,h,oc,k] (T=2 for
// two threads). The workload: [8,3,32,32]x[16,3,3,3] pad 1.
import { torch } from '../src/node.js';
import { aten } from '../src/generated/Operators.js';
torch.setNumThreads(Number(process.env.T ?? 1));
const least = (f: () => void, n = 20): number => {
  const r: number[] = [];
  for (let k = 0; k < 7; k++) {
    const s = process.cpuUsage();
    for (let i = 0; i < n; i++) torch.scope(f);
    const e = process.cpuUsage(s);
    r.push((e.user + e.system) / n);
  }
  return Math.min(...r);
};
torch.manualSeed(0);
const [n, c, h, oc, k] = (process.argv[2] ?? '8,3,32,16,3').split(',').map(Number) as number[];
const x = torch.randn(n!, c!, h!, h!);
const w = torch.randn(oc!, c!, k!, k!);
const xg = x.detach().requiresGrad_();
const wg = w.detach().requiresGrad_();
const y = torch.conv2d(x, w, null, 1, 1);
const gE = torch.ones([]).expand(y.sizes);
const gC = gE.contiguous();
for (let r = 0; r < 3; r++) {
  const rows: [string, number][] = [
    [
      'fwd',
      least(() => {
        torch.conv2d(x, w, null, 1, 1);
      }),
    ],
    [
      'fwd+bwd',
      least(() => {
        torch.autograd.grad(torch.conv2d(xg, wg, null, 1, 1).sum(), [xg, wg]);
      }),
    ],
    [
      'fwd grad-mode',
      least(() => {
        torch.conv2d(xg, wg, null, 1, 1);
      }),
    ],
    [
      'sum',
      least(() => {
        y.sum();
      }),
    ],
    [
      'contig(expand)',
      least(() => {
        gE.contiguous();
      }),
    ],
    [
      'bwd_input (contig g)',
      least(() => {
        aten()._conv2d_backward_input.call(gC, x, w, [1, 1], [1, 1], [1, 1], 1);
      }),
    ],
    [
      'bwd_input (expanded g)',
      least(() => {
        aten()._conv2d_backward_input.call(gE, x, w, [1, 1], [1, 1], [1, 1], 1);
      }),
    ],
    [
      'bwd_weight (contig g)',
      least(() => {
        aten()._conv2d_backward_weight.call(gC, x, w, [1, 1], [1, 1], [1, 1], 1);
      }),
    ],
    [
      'empty [8,16,32,32]',
      least(() => {
        torch.empty(y.sizes);
      }),
    ],
  ];
  console.log(rows.map(([a, b]) => `${a} ${b.toFixed(0)}`).join(' | '));
}
