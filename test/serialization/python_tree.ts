// The JSON tree tools/golden/gen_serialization.py's `describe` writes for a loaded object, computed here for
// an aten-ts value, so a golden file's contents compare with one toEqual (and files aten-ts writes carry
// the tree check_roundtrip.py compares PyTorch's load against).
import { dtypeName, elementSize } from '../../src/c10/ScalarType.js';
import { isOrderedDict, isParameter, isTuple } from '../../src/serialization/index.js';
import { Tensor } from '../../src/tensor/Tensor.js';

export type Tree = unknown;

function fval(x: number): number | string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return x;
}

function tensorValues(t: Tensor): unknown[] {
  const list = t.tolist();
  const flat = t.dim() === 0 ? [list] : (list as unknown[]).flat(t.dim() - 1);
  const name = dtypeName(t.scalarType);
  return flat.map((v) => {
    if (Array.isArray(v)) return v.map((x: number) => fval(x));
    if (typeof v === 'boolean') return v;
    if (name.startsWith('float') || name === 'bfloat16') return fval(v as number);
    return String(v);
  });
}

/** The tree of `value`; `storages` numbers storages in first-seen order (storage sharing). */
export function pythonTree(value: unknown, storages = new Map<object, number>()): Tree {
  if (value instanceof Tensor) {
    if (!storages.has(value.storage)) storages.set(value.storage, storages.size);
    return {
      tensor: {
        dtype: dtypeName(value.scalarType),
        shape: [...value.sizes],
        stride: [...value.strides],
        storage_offset: value.storageOffset,
        storage: storages.get(value.storage),
        storage_numel: value.storage.nbytes / elementSize(value.scalarType),
        requires_grad: value.requiresGrad,
        parameter: isParameter(value),
        values: tensorValues(value),
      },
    };
  }
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return { int: value.toString() };
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && !Object.is(value, -0) ? { int: String(value) } : { float: fval(value) };
  if (Array.isArray(value))
    return isTuple(value) ? { tuple: value.map((v) => pythonTree(v, storages)) } : { list: value.map((v) => pythonTree(v, storages)) };
  if (value instanceof Map || (typeof value === 'object' && value !== null)) {
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    const out: Record<string, unknown> = {
      dict: entries.map(([k, v]) => [pythonTree(k, storages), pythonTree(v, storages)]),
      ordered: isOrderedDict(value),
    };
    const meta = Object.getOwnPropertyDescriptor(value, '_metadata');
    if (meta !== undefined && !meta.enumerable) out.metadata = pythonTree(meta.value, storages);
    return out;
  }
  throw new Error(`no tree for ${typeof value}`);
}

/** A golden tree with Python floats that JavaScript reads as integers (1.0 → 1) written as ints. */
export function asJavaScriptReadsIt(tree: Tree): Tree {
  if (Array.isArray(tree)) return tree.map(asJavaScriptReadsIt);
  if (typeof tree !== 'object' || tree === null) return tree;
  const t = tree as Record<string, unknown>;
  if ('tensor' in t) return tree;
  if ('float' in t && typeof t.float === 'number' && Number.isSafeInteger(t.float) && !Object.is(t.float, -0))
    return { int: String(t.float) };
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, asJavaScriptReadsIt(v)]));
}
