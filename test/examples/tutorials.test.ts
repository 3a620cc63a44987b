// PyTorch's own tutorials, ported line for line in examples/tutorials/, print what the torch 2.13 wheel
// prints running the same (shrunk, seeded) code: tools/golden/tutorials/*.py, recorded by
// tools/golden/gen_tutorials.py in test/golden/tutorials.json.
//
// Each tutorial is a top-level script; it runs in-process when imported (so on every kernel path of the suite),
// with console.log captured. A printed line must equal PyTorch's once its numbers are taken out; the numbers
// must agree to within a relative 2e-3 (absolute 1e-4 near zero): float32 sums over thousands of elements are
// reduced in a different order than ATen's vectorized reductions, and a training loop carries the last-digit
// differences on from step to step. Where a tutorial prints only exact things (shapes, ints, dtypes), the
// numbers agree exactly anyway.
import { format } from 'node:util';
import { describe, expect, it, vi } from 'vitest';

import { loadGolden } from '../golden.js';
import { torch } from '../../src/index.js';

const fixture = loadGolden<{ tutorials: Record<string, string[]> }>('tutorials.json');

const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?/gi;

/** Python's float repr and JavaScript's differ in the exponent spelling only (1e-06 / 0.000001 aside). */
function splitLine(line: string): { text: string; numbers: number[] } {
  const numbers: number[] = [];
  const text = line.replace(NUMBER, (m) => {
    numbers.push(Number(m));
    return '#';
  });
  return { text, numbers };
}

async function runTutorial(name: string): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(...format(...args).split('\n'));
  });
  try {
    await import(`../../examples/tutorials/${name}.ts`);
  } finally {
    spy.mockRestore();
  }
  return lines;
}

function compareLines(got: string[], want: string[], rtol = 2e-3, atol = 1e-4): void {
  expect(got.length).toBe(want.length);
  want.forEach((w, i) => {
    const g = got[i]!;
    const a = splitLine(g);
    const b = splitLine(w);
    expect(a.text, `line ${i}: ${g}\n  vs PyTorch: ${w}`).toBe(b.text);
    expect(a.numbers.length).toBe(b.numbers.length);
    a.numbers.forEach((v, j) => {
      const r = b.numbers[j]!;
      if (Math.abs(v - r) > atol + rtol * Math.abs(r)) {
        expect.fail(`line ${i}, number ${j}: ${v} vs PyTorch's ${r}\n  ${g}\n  ${w}`);
      }
    });
  });
}

describe('examples/tutorials: PyTorch tutorials ported line for line', () => {
  for (const name of Object.keys(fixture.tutorials)) {
    it(`${name} prints what PyTorch prints`, async () => {
      compareLines(await runTutorial(name), fixture.tutorials[name]!);
    }, 60_000);
  }
});

describe('PyTorch spellings the tutorials use', () => {
  it('grad_fn.next_functions is nextFunctions', () => {
    const w = torch.ones(3, { requires_grad: true });
    const loss = torch.relu(w.mul(2)).sum();
    const [[relu, nr]] = loss.grad_fn!.next_functions as [[NonNullable<typeof loss.grad_fn>, number]];
    expect(relu.name()).toBe('ReluBackward0');
    expect(nr).toBe(0);
    expect(relu.next_functions[0]![0]!.name()).toBe('MulBackward0');
    expect(relu.next_functions).toEqual(relu.nextFunctions);
  });
});
