// `npm start`'s training run follows PyTorch's: the same LeNet, seed, shuffling and SGD as
// tools/golden/gen_train.py, which trained it with the wheel and recorded the loss of every step of the first
// epoch and the test accuracy after each epoch (test/golden/train.json).
import { describe, expect, it } from 'vitest';
import { confusionTable, train } from '../../src/cli/train.js';
import { loadGolden } from '../golden.js';

interface TrainGolden {
  seed: number;
  batch_size: number;
  lr: number;
  momentum: number;
  epochs: number;
  train_size: number;
  test_size: number;
  losses_epoch1: number[];
  test_accuracy: number[];
  confusion: number[][];
}

const golden = loadGolden<TrainGolden>('train.json');

describe('npm start: LeNet on the Fashion-MNIST subset', () => {
  it("follows PyTorch's loss curve over the first epoch and reaches its test accuracy", () => {
    const r = train({
      epochs: 1,
      batch_size: golden.batch_size,
      lr: golden.lr,
      momentum: golden.momentum,
      seed: golden.seed,
    });
    expect(r.trainSize).toBe(golden.train_size);
    expect(r.testSize).toBe(golden.test_size);
    expect(r.losses.length).toBe(golden.losses_epoch1.length);
    let worst = 0;
    r.losses.forEach((l, i) => {
      worst = Math.max(worst, Math.abs(l - golden.losses_epoch1[i]!) / Math.abs(golden.losses_epoch1[i]!));
    });
    // float32 arithmetic in a different summation order than PyTorch's kernels: the curves agree to float32
    // precision at the start and stay within 1e-3 relative over the 157 steps of the epoch.
    expect(worst).toBeLessThan(1e-3);
    expect(Math.abs(r.losses[0]! - golden.losses_epoch1[0]!)).toBeLessThan(1e-6);
    expect(Math.abs(r.accuracy[0]! - golden.test_accuracy[0]!)).toBeLessThanOrEqual(0.005);
    expect(r.confusion.flat().reduce((a, b) => a + b, 0)).toBe(golden.test_size);
  }, 120_000);

  it('prints the confusion matrix with one row per true class', () => {
    const table = confusionTable(golden.confusion, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    const lines = table.split('\n');
    expect(lines.length).toBe(11);
    expect(lines[1]!.trim().split(/\s+/).slice(1).map(Number)).toEqual(golden.confusion[0]);
  });
});
