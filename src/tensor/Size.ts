// torch.Size: what `x.shape` and `x.size()` return. Mirrors torch/csrc/Size.cpp (THPSize, a tuple subclass).

// Note [Size is an Array]
// ~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's Size is a tuple subclass: it indexes, unpacks and compares like a tuple and prints as
// `torch.Size([3, 4])`. Here it extends Array, so destructuring, `.length`, indexing, `Array.isArray` and
// every array method keep working, and only printing (`String(size)`, console.log) and `numel()` are added.
// As slicing a Size gives a Size in Python, `slice`/`map`/`filter` give one here (Array's species rule: they
// call `new Size(length)`, so a number argument means a length, never a one-element size). Each access
// makes a fresh Size, as each `x.shape` in Python is a new tuple: mutating one never touches the tensor.
// Library code reads `TensorImpl.sizes`, never `shape`, so no kernel pays for the copy.

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** The Python type name of a value, for the error of a non-int element. */
function pyTypeName(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (v === null || v === undefined) return 'NoneType';
  return typeof v === 'object' ? ((v as object).constructor?.name ?? 'object') : typeof v;
}

/**
 * `torch.Size(sizes)`: a tensor's sizes, an Array of ints that prints as PyTorch's Size.
 *
 * @example
 * const s = torch.zeros(3, 4).shape; // torch.Size([3, 4])
 * const [rows, cols] = s; // 3, 4
 * s.numel(); // 12
 */
export class Size extends Array<number> {
  constructor(sizes: Iterable<number> | number = []) {
    if (typeof sizes === 'number') {
      super(sizes); // Array's species constructor (slice, map, ...): See Note [Size is an Array]
      return;
    }
    super();
    let i = 0;
    for (const s of sizes as Iterable<unknown>) {
      // bools are ints in Python (torch.Size([True]) is torch.Size([1]))
      const v = typeof s === 'boolean' ? Number(s) : s;
      if (typeof v !== 'number' || !Number.isInteger(v)) {
        throw new TypeError(`torch.Size() takes an iterable of 'int' (item ${i} is '${pyTypeName(s)}')`);
      }
      this.push(v);
      i++;
    }
  }

  /** @internal A Size holding a copy of `sizes` (no checks: they come from a tensor). */
  static fromSizes(sizes: readonly number[]): Size {
    const n = sizes.length;
    const out = new Size(n);
    for (let i = 0; i < n; i++) out[i] = sizes[i] as number;
    return out;
  }

  /** `size[a:b]`: a Size, as slicing a Size is in Python (Array's species rule; this signature says so). */
  override slice(start?: number, end?: number): Size {
    return super.slice(start, end) as Size;
  }

  /** `size.numel()`: the number of elements a tensor of this size holds (1 for `torch.Size([])`). */
  numel(): number {
    let n = 1;
    for (let i = 0; i < this.length; i++) n *= this[i] as number;
    return n;
  }

  /** `repr(size)` / `str(size)`: `torch.Size([3, 4])`. */
  override toString(): string {
    return `torch.Size([${this.join(', ')}])`;
  }

  /** Node's util.inspect (console.log, the REPL): `torch.Size([3, 4])`. */
  [INSPECT](): string {
    return this.toString();
  }
}
