// Same-process A/B of conv2d's direct kernels (Note [Direct convolution]) against im2col + gemm: CPU time
// (user + system, less sensitive to other processes than wall time), the least of 5 batches of 10 calls.
// Run: ATEN_TS_THREADS=1 npx tsx bench/conv_ab.ts [n,c,h,oc,k]

import { torch } from '../src/index.js';
import { directConvSettings } from '../src/kernels/ConvolutionMM2d.js';
const least = (f: () => void, n = 10): number => {
  const r: number[] = [];
  for (let k = 0; k < 5; k++) {
    const s = process.cpuUsage();
    for (let i = 0; i < n; i++) f();
    const e = process.cpuUsage(s);
    r.push((e.user + e.system) / n);
  }
  return Math.min(...r);
};
torch.manualSeed(0);
const [n, c, h, oc, k] = (process.argv[2] ?? '8,3,32,16,3').split(',').map(Number) as number[];
const x = torch.randn(n!, c!, h!, h!, { requires_grad: true });
const w = torch.randn(oc!, c!, k!, k!, { requires_grad: true });
for (let r = 0; r < 4; r++) {
  for (const maxK of [256, 0]) {
    directConvSettings.maxK = maxK;
    const f = least(() =>
      torch.scope(() => {
        torch.noGrad(() => torch.conv2d(x, w, null, 1, 1));
      }),
    );
    const fb = least(() =>
      torch.scope(() => {
        torch.autograd.grad(torch.conv2d(x, w, null, 1, 1).sum(), [x, w]);
      }),
    );
    const gx = least(() =>
      torch.scope(() => {
        torch.autograd.grad(torch.conv2d(x, w, null, 1, 1).sum(), [x]);
      }),
    );
    const gw = least(() =>
      torch.scope(() => {
        torch.autograd.grad(torch.conv2d(x, w, null, 1, 1).sum(), [w]);
      }),
    );
    console.log(
      maxK ? 'direct' : 'im2col',
      `fwd ${f.toFixed(0)}µs fwd+bwd ${fb.toFixed(0)}µs  (x only ${gx.toFixed(0)}, w only ${gw.toFixed(0)})`,
    );
  }
}
