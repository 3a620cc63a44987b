// Type-level tests of the generated handles (src/generated/Operators.ts): the `@ts-expect-error` lines are checked
// by `npm run typecheck` (tsconfig.node.json includes test/); at run time the calls are never made.
import { describe, expect, it } from 'vitest';
import type { AtenOps } from '../../src/generated/Operators.js';
import type { ScalarValue } from '../../src/tensor/elements.js';
import type { Tensor } from '../../src/tensor/Tensor.js';

type Fn<K extends keyof AtenOps> = AtenOps[K] extends { call: infer F } ? F : never;

// Never called: only type-checked.
function typeChecks(ops: AtenOps, t: Tensor): void {
  ops.add_Tensor.call(t, t, 1);
  ops.empty_memory_format.call([2, 3]);
  ops.slice_Tensor.call(t, 0, null, undefined, 1);
  ops.rand_generator.call([2], null);
  const s: ScalarValue = ops.item.call(t);
  void s;
  // @ts-expect-error item returns a ScalarValue, not a Tensor
  const notTensor: Tensor = ops.item.call(t);
  void notTensor;
  // @ts-expect-error alpha (Scalar alpha=1) is required: the dispatcher does not fill defaults
  ops.add_Tensor.call(t, t);
  // @ts-expect-error other is a Tensor, not a number
  ops.mul_Tensor.call(t, 2);
  // @ts-expect-error size is int[], not int
  ops.view.call(t, 3);
  // @ts-expect-error the generator of rand.generator has no default
  ops.rand_generator.call([2]);
  // @ts-expect-error no such handle: overloads are joined with `_`
  void ops.add;
}

describe('generated handle types', () => {
  it('type-checks (see the @ts-expect-error lines above)', () => {
    expect(typeof typeChecks).toBe('function');
    const f: Fn<'transpose_int'> | null = null;
    expect(f).toBeNull();
  });
});
