// The matmul kernel's variants in `npm run bench:webgpu` (section `variants`): each variant of
// src/webgpu/kernels/LinearAlgebra.ts (`matmulVariants`: vec4 global loads in the register-tiled kernel, the
// small-output split-K path) against the same product with the variant switched off — the kernel as it was before
// the variant — alternated over rounds in one page, medians printed; and every result checked against the cpu
// device (the largest difference relative to the largest |value| is printed; a difference over 1e-4 fails the
// line). No Node API and no value imports (the caller hands in the namespaces).

type Aten = typeof import('../src/index.js');
type WebGPU = typeof import('../src/webgpu/index.js');
type Tensor = import('../src/index.js').Tensor;
type Variants = typeof import('../src/webgpu/kernels/LinearAlgebra.js').matmulVariants;

const now = (): number => performance.now();
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number, digits = 2): string => x.toFixed(digits);

interface Case {
  readonly name: string;
  readonly variant: keyof Variants;
  readonly flops: number;
  /** The product on `device` from the cpu operands. */
  readonly run: (device: string) => Tensor;
}

export async function matmulVariants(
  aten: Aten,
  webgpu: WebGPU,
  variants: Variants | undefined,
  quick: boolean,
  log: (line: string) => void,
): Promise<void> {
  const { torch } = aten;
  if (variants === undefined) {
    log('matmul variants: skipped (the caller did not hand in LinearAlgebra.ts matmulVariants)');
    return;
  }
  torch.manual_seed(0);
  const S = quick ? 256 : 2048;
  const on = (device: string, ...xs: Tensor[]): Tensor[] => xs.map((x) => x.to(device));
  const cache = new Map<string, Tensor[]>();
  const operands = (key: string, device: string, make: () => Tensor[]): Tensor[] => {
    const cpu = cache.get(key) ?? make();
    cache.set(key, cpu);
    const k = `${key}@${device}`;
    const dev = cache.get(k) ?? on(device, ...cpu);
    cache.set(k, dev);
    return dev;
  };
  const sq = (): Tensor[] => [torch.rand([S, S]).sub(0.5), torch.rand([S, S]).sub(0.5), torch.rand([S]).sub(0.5)];
  const cases: Case[] = [
    {
      name: `mm [${S},${S}]@[${S},${S}] (vec4 loads)`,
      variant: 'vec4Loads',
      flops: 2 * S ** 3,
      run: (d) => {
        const [a, b] = operands('sq', d, sq);
        return torch.mm(a!, b!);
      },
    },
    {
      name: `linear [${S},${S}]@W.t()+bias (vec4 loads, W read along k)`,
      variant: 'vec4Loads',
      flops: 2 * S ** 3,
      run: (d) => {
        const [a, b, bias] = operands('sq', d, sq);
        return torch.addmm(bias!, a!, b!.t());
      },
    },
    {
      name: `mm [${S},${S}].t()@[${S},${S}] (vec4 loads, A read along rows)`,
      variant: 'vec4Loads',
      flops: 2 * S ** 3,
      run: (d) => {
        const [a, b] = operands('sq', d, sq);
        return torch.mm(a!.t(), b!);
      },
    },
    {
      name: 'mm [1,4096]@[4096,10] (small output)',
      variant: 'smallOutput',
      flops: 2 * 4096 * 10,
      run: (d) => {
        const [a, b] = operands('row', d, () => [torch.rand([1, 4096]).sub(0.5), torch.rand([4096, 10]).sub(0.5)]);
        return torch.mm(a!, b!);
      },
    },
    {
      name: 'linear [4,1024]@W.t()+bias, W [10,1024] (small output)',
      variant: 'smallOutput',
      flops: 2 * 4 * 1024 * 10,
      run: (d) => {
        const [x, w, bias] = operands('lin', d, () => [torch.rand([4, 1024]).sub(0.5), torch.rand([10, 1024]).sub(0.5), torch.rand([10])]);
        return torch.addmm(bias!, x!, w!.t());
      },
    },
  ];
  const saved = { ...variants };
  const rounds = quick ? 3 : 5;
  try {
    for (const c of cases) {
      const reps = c.flops > 1e8 ? 1 : quick ? 20 : 200;
      const want = c.run('cpu');
      const scale = Math.max(1e-30, want.abs().max().item() as number);
      const times: Record<'off' | 'on', number[]> = { off: [], on: [] };
      const diffs: Record<'off' | 'on', number> = { off: 0, on: 0 };
      for (const mode of ['off', 'on'] as const) {
        variants[c.variant] = mode === 'on';
        // Compiles this variant's pipeline, and checks its values.
        const got = await webgpu.cpuAsync(c.run('webgpu'));
        diffs[mode] = (got.sub(want).abs().max().item() as number) / scale;
      }
      for (let r = 0; r < rounds; r++) {
        for (const mode of ['off', 'on'] as const) {
          variants[c.variant] = mode === 'on';
          await webgpu.synchronize();
          const t0 = now();
          for (let i = 0; i < reps; i++) c.run('webgpu');
          await webgpu.synchronize();
          times[mode].push((now() - t0) / reps);
        }
      }
      const [off, on2] = [median(times.off), median(times.on)];
      const ok = diffs.on <= 1e-4 && diffs.off <= 1e-4 ? 'values agree with cpu' : 'VALUES DIFFER FROM CPU';
      log(
        `matmul variant ${c.name}: off ${fmt(c.flops / off / 1e6, 2)} GFLOP/s (${fmt(off * 1000, 0)} µs), on ` +
          `${fmt(c.flops / on2 / 1e6, 2)} GFLOP/s (${fmt(on2 * 1000, 0)} µs): ${fmt(off / on2)}x; ${ok} (max diff / max |value|: ` +
          `off ${diffs.off.toExponential(1)}, on ${diffs.on.toExponential(1)}); medians of ${rounds} rounds of ${reps}, alternated`,
      );
    }
  } finally {
    Object.assign(variants, saved);
  }
}
