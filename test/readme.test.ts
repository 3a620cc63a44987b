// The README's "A taste" snippets, kept running: tools/browser/scenarios.ts holds them (the browser test runs
// the same code in Chromium and compares with Node's lines); here their lines are checked against the results
// the README claims, from PyTorch 2.13.
import { describe, expect, it } from 'vitest';
import * as aten from '../src/index.js';
import { scenarios } from '../tools/browser/scenarios.js';

const run = (name: string): string[] => {
  const s = scenarios.find((c) => c.name === name);
  if (s === undefined) throw new Error(`no scenario ${name}`);
  return s.run(aten);
};

describe("README's taste", () => {
  it('runs and gives what the README says', () => {
    const [t, add, sum, max, loss, metaSize] = run("README 'A taste'");
    expect(t).toBe('tensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]])');
    expect(JSON.parse(add!)).toEqual([
      [2, 3, 4],
      [5, 6, 7],
    ]);
    expect(JSON.parse(sum!)).toEqual([[3], [12]]);
    expect(JSON.parse(max!)).toEqual([
      [2, 5],
      [2, 2],
    ]);
    expect(loss).toMatch(/^tensor\(\d+\.\d{4}\)$/);
    expect(JSON.parse(metaSize!)).toEqual([8, 4, 14, 14]);
  });

  it("runs the autograd snippet with PyTorch 2.13's results", () => {
    const [loss, gradText, grad, noGrad, autogradGrad] = run("README 'A taste': autograd");
    expect(loss).toBe('tensor(4.7591, grad_fn=<NllLossBackward0>)');
    expect(gradText).toBe('tensor([[-1.4909, -1.9819],\n        [ 1.4909,  1.9819]])');
    const g = JSON.parse(grad!) as number[][];
    const want = [
      [-1.4909, -1.9819],
      [1.4909, 1.9819],
    ];
    g.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(want[i]![j]!, 4)));
    expect(noGrad).toBe('false');
    expect(JSON.parse(autogradGrad!)).toEqual([
      [
        [1, -2],
        [4, 0.5],
      ],
    ]);
  });
});
