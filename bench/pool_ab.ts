// Same-process A/B of pooling: WebAssembly kernels (Note [Vectorised 2×2 pooling]) against the JS loops (the
// 'js' backend), LeNet's first pooling [64, 6, 24, 24], 2×2; medians of 9 batches of wall time.
// Run: npx tsx bench/pool_ab.ts

import { torch, setKernelBackend } from '../src/index.js';
const med = (f: () => void, n = 50): number => {
  const r: number[] = [];
  for (let k = 0; k < 9; k++) {
    const s = performance.now();
    for (let i = 0; i < n; i++) f();
    r.push(((performance.now() - s) / n) * 1000);
  }
  return r.sort((a, b) => a - b)[4]!;
};
for (const be of ['wasm', 'js', 'wasm', 'js'] as const) {
  setKernelBackend(be);
  const x = torch.randn(64, 6, 24, 24, { requires_grad: true });
  const y = torch.max_pool2d(x, 2);
  const g = torch.randn(...y.shape);
  const fw = med(() =>
    torch.scope(() => {
      torch.noGrad(() => torch.max_pool2d(x, 2));
    }),
  );
  const bw = med(() =>
    torch.scope(() => {
      torch.autograd.grad(torch.max_pool2d(x, 2), [x], { grad_outputs: g });
    }),
  );
  const af = med(() =>
    torch.scope(() => {
      torch.noGrad(() => torch.avg_pool2d(x, 2));
    }),
  );
  const ab = med(() =>
    torch.scope(() => {
      torch.autograd.grad(torch.avg_pool2d(x, 2), [x], { grad_outputs: g });
    }),
  );
  console.log(be, `max fwd ${fw.toFixed(0)}µs  fwd+bwd ${bw.toFixed(0)}µs  avg fwd ${af.toFixed(0)}µs fwd+bwd ${ab.toFixed(0)}µs`);
}
