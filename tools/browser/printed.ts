// The rule by which a ported tutorial's printed lines match PyTorch's (test/golden/tutorials.json), shared by
// the Node test (test/examples/tutorials.test.ts) and the browser page (tools/browser/tutorials.ts). No
// imports, no Node API: the page loads it transpiled.
//
// A line must equal PyTorch's once its numbers are taken out; the numbers must agree to within a relative
// 2e-3 (absolute 1e-4 near zero): float32 sums over thousands of elements are reduced in a different order
// than ATen's vectorized reductions, and a training loop carries the last-digit differences on from step to
// step. Where a tutorial prints only exact things (shapes, ints, dtypes), the numbers agree exactly anyway.

const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?/gi;

/** A printed line's text with every number replaced by `#`, and the numbers. */
export function splitLine(line: string): { text: string; numbers: number[] } {
  const numbers: number[] = [];
  // console.log(true) prints `true` where Python's print(True) prints `True`: the words compare alike.
  // Python's float repr and JavaScript's differ in the exponent spelling only (1e-06 / 0.000001 aside).
  const text = line
    .replace(/\b(True|False)\b/g, (m) => m.toLowerCase())
    .replace(NUMBER, (m) => {
      numbers.push(Number(m));
      return '#';
    });
  return { text, numbers };
}

/** Drops trailing empty lines: tools/golden/gen_tutorials.py records the output with its trailing newlines stripped. */
export function trimTrailingEmpty(lines: string[]): string[] {
  const out = [...lines];
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** Null when `got` matches PyTorch's `want` line for line (text exactly, numbers to rtol/atol); else the first difference. */
export function comparePrinted(got: readonly string[], want: readonly string[], rtol = 2e-3, atol = 1e-4): string | null {
  for (let i = 0; i < Math.min(got.length, want.length); i++) {
    const g = got[i] as string;
    const w = want[i] as string;
    const a = splitLine(g);
    const b = splitLine(w);
    if (a.text !== b.text || a.numbers.length !== b.numbers.length) return `line ${i}: ${g}\n  vs PyTorch: ${w}`;
    for (let j = 0; j < a.numbers.length; j++) {
      const v = a.numbers[j] as number;
      const r = b.numbers[j] as number;
      if (!(Math.abs(v - r) <= atol + rtol * Math.abs(r))) return `line ${i}, number ${j}: ${v} vs PyTorch's ${r}\n  ${g}\n  ${w}`;
    }
  }
  if (got.length !== want.length) return `printed ${got.length} lines, PyTorch ${want.length}`;
  return null;
}
