// Benchmark: filling 10^6 float32 and float64 values with torch.rand / torch.randn semantics (src/random).
//
//   npx tsx bench/random.bench.ts
//
// For scale, torch 2.13 on one core of the machine these were tuned on (AMD EPYC, ~1.9 GHz): rand float32
// 5 ms, randn float32 4 ms, rand float64 5 ms, randn float64 19 ms per 10^6. Here rand is on par; randn
// emulates the AVX2 Box-Muller one lane at a time with exactly rounded float32 FMAs (float32) or glibc's
// libm with emulated double FMAs (float64), which costs roughly 20x and 15x.
import { bench, run, summary } from 'mitata';
import { Generator, randFill, randnFill } from '../src/random/index.js';

const N = 1_000_000;
const g = new Generator(0);
const f32 = new Float32Array(N);
const f64 = new Float64Array(N);

summary(() => {
  bench('randFill float32 x 1e6', () => randFill(g, f32));
  bench('randnFill float32 x 1e6', () => randnFill(g, f32));
  bench('randFill float64 x 1e6', () => randFill(g, f64));
  bench('randnFill float64 x 1e6', () => randnFill(g, f64));
});

await run();
