// `npm start`'s training run follows PyTorch's: the same LeNet, seed, shuffling and SGD as
// tools/golden/gen_train.py, which trained it with the wheel and recorded the loss of every step of the first
// epoch and the test accuracy after each epoch (test/golden/train.json), on one thread and again on two.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BARS, confusionTable, lossCurves, train } from '../../src/cli/train.js';
import { loadGolden } from '../golden.js';

interface Run {
  losses_epoch1: number[];
  test_accuracy: number[];
}
interface TrainGolden extends Run {
  seed: number;
  batch_size: number;
  lr: number;
  momentum: number;
  train_size: number;
  test_size: number;
  confusion: number[][];
  two_threads: Run;
}

const golden = loadGolden<TrainGolden>('train.json');
const WINDOW = 20;
const windows = (l: number[]): number[] =>
  Array.from(
    { length: Math.floor(l.length / WINDOW) },
    (_, i) => l.slice(i * WINDOW, (i + 1) * WINDOW).reduce((a, b) => a + b, 0) / WINDOW,
  );
const worstRel = (a: number[], b: number[]): number => Math.max(...a.map((x, i) => Math.abs(x - b[i]!) / Math.abs(b[i]!)));

describe('npm start: LeNet on the Fashion-MNIST subset', () => {
  const result = train({ epochs: 1, batch_size: golden.batch_size, lr: golden.lr, momentum: golden.momentum, seed: golden.seed });

  it("follows PyTorch's loss curve over the first epoch and reaches its test accuracy", () => {
    expect(result.trainSize).toBe(golden.train_size);
    expect(result.testSize).toBe(golden.test_size);
    const [ours, torch1, torch2] = [result.losses, golden.losses_epoch1, golden.two_threads.losses_epoch1];
    expect(ours.length).toBe(torch1.length);
    // On the plateau (the first 50 steps) the curves agree to float32 rounding, step by step: PyTorch's own
    // two-thread run agrees with its one-thread run there too.
    expect(worstRel(torch2.slice(0, 50), torch1.slice(0, 50))).toBeLessThan(1e-4);
    expect(worstRel(ours.slice(0, 50), torch1.slice(0, 50))).toBeLessThan(1e-4);
    // Past it training amplifies rounding differences (summation order alone moves PyTorch's curve by several
    // percent, the fixture's two-thread run), so from there the curves are compared as means over 20 steps,
    // within 1.5× of how far PyTorch's own two-thread curve strays, and never more than 10%.
    const own = worstRel(windows(torch2), windows(torch1));
    expect(own).toBeLessThan(0.1);
    expect(worstRel(windows(ours), windows(torch1))).toBeLessThan(Math.max(1.5 * own, 0.01));
    // Test accuracy after the epoch: as close as PyTorch's two runs are to each other, plus a point.
    const spread = Math.abs(golden.two_threads.test_accuracy[0]! - golden.test_accuracy[0]!);
    expect(Math.abs(result.accuracy[0]! - golden.test_accuracy[0]!)).toBeLessThanOrEqual(spread + 0.01);
    expect(result.confusion.flat().reduce((a, b) => a + b, 0)).toBe(golden.test_size);
  });

  it('shows both curves in the README, as lossCurves draws them from the fixture and from this run', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const [pytorch, atenTs] = lossCurves(golden.losses_epoch1, result.losses);
    expect(readme).toContain(`PyTorch 2.13  ${pytorch}`);
    // The README's aten-ts line was drawn from a run on the WASM kernels; a run on another path (the JS
    // kernels, two threads) follows PyTorch as closely but may cross a bar's boundary: at most one level apart.
    const shown = [...(/aten-ts {7}(\S+)/.exec(readme)?.[1] ?? '')];
    const drawn = [...atenTs];
    expect(shown.length).toBe(drawn.length);
    shown.forEach((c, i) => expect(Math.abs(BARS.indexOf(c) - BARS.indexOf(drawn[i]!))).toBeLessThanOrEqual(1));
  });

  it('prints the confusion matrix with one row per true class', () => {
    const table = confusionTable(golden.confusion, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    const lines = table.split('\n');
    expect(lines.length).toBe(11);
    expect(lines[1]!.trim().split(/\s+/).slice(1).map(Number)).toEqual(golden.confusion[0]);
  });
});
