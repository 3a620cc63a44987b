// The browser test's scenarios (tools/browser/scenarios.ts) in Node: what they print is right, not only equal
// between Node and Chromium (tools/browser/run.ts compares those).
import { describe, expect, it } from 'vitest';
import * as aten from '../../src/index.js';
import { scenarios } from '../../tools/browser/scenarios.js';

const run = (prefix: string): string[] => {
  const s = scenarios.find((c) => c.name.startsWith(prefix));
  if (s === undefined) throw new Error(`no scenario ${prefix}`);
  return s.run(aten);
};

describe('browser scenarios in Node', () => {
  it('training step: the loss decreases at every SGD step', () => {
    const lines = run('training step');
    const losses = lines.filter((l) => l.startsWith('step ')).map((l) => Number(l.split('loss ')[1]));
    expect(losses).toHaveLength(5);
    losses.slice(1).forEach((l, i) => expect(l).toBeLessThan(losses[i]!));
    expect(losses[0]).toBeCloseTo(Math.log(3), 0); // three classes, small initial logits
  });

  it('custom op: def + CPU and Autograd kernels give k x^2 and its gradient 2 k x, then remove() drops it', () => {
    expect(run('custom op')).toEqual([
      'browser_demo::scaled_square(Tensor x, float k) -> Tensor',
      'tensor([ 1.5000,  6.0000, 13.5000], grad_fn=<ScaledSquareBackward>)',
      'tensor([ 3., -6.,  9.])',
      'CPU kernel: true',
      'after remove(): false',
    ]);
    expect(aten.Dispatcher.singleton().findSchema('browser_demo::scaled_square')).toBeNull();
  });

  it('dispatch trace: torch.add goes through AutogradCPU to CPU, and tracing is off after', () => {
    const lines = run('dispatch trace');
    expect(lines).toContain('[call] op=[aten::add.Tensor], key=[AutogradCPU]');
    expect(lines).toContain(' [redispatch] op=[aten::add.Tensor], key=[CPU]');
    const after: string[] = [];
    const previous = aten.setDispatchTraceSink((l) => after.push(l));
    aten.torch.add(aten.torch.ones(1), 1);
    aten.setDispatchTraceSink(previous);
    expect(after).toEqual([]); // the scenario turned tracing off again
  });
});
