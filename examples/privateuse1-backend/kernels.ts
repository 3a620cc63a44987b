// The device's own kernels: the ones every backend needs (empty, empty_strided, copy_ both ways) and a few
// native float32 ones (add, mul, mm, relu, sum). Anything else — other dtypes, mixed devices, every other
// operator — runs through aten-ts's cpu_fallback. Written only against the published API ('aten-ts').
import {
  Device,
  DeviceType,
  Dispatcher,
  ScalarType,
  Tensor,
  cpu_fallback,
  empty_generic,
  empty_strided_generic,
  torch,
  type Allocator,
  type DispatchKeySet,
  type StorageArray,
  type UnboxedKernel,
} from 'aten-ts';

/** Calls of each kind, so tests can see which operators ran natively and which fell back. */
export const counters = { native: new Map<string, number>(), fallback: new Map<string, number>() };

function count(map: Map<string, number>, name: string): void {
  map.set(name, (map.get(name) ?? 0) + 1);
}

/** A boxed fallback that counts, then runs the operator on CPU (aten-ts's at::native::cpu_fallback). */
export function countingFallback(...args: Parameters<typeof cpu_fallback>): void {
  count(counters.fallback, args[0].operatorName);
  cpu_fallback(...args);
}

/** Runs one operator through the fallback from inside a native kernel (a dtype or device it does not take). */
function fallBack(ks: DispatchKeySet, name: string, overload: string, args: unknown[]): Tensor {
  const op = Dispatcher.singleton().findSchemaOrThrow(name, overload);
  const stack = [...args];
  countingFallback(op, ks, stack);
  return stack[0] as Tensor;
}

function onDevice(...ts: Tensor[]): boolean {
  return ts.every((t) => t.device.type === DeviceType.PrivateUse1 && t.scalarType === ScalarType.Float);
}

/** The float32 elements of `t` in row-major order (any strides). */
function read(t: Tensor): Float32Array {
  const out = new Float32Array(t.numel());
  const data = t.storage.data(t.scalarType);
  const base = t.storage.arrayOffset(t.scalarType) + t.storageOffset;
  let k = 0;
  forEachOffset(t.sizes, t.strides, (off) => (out[k++] = data[base + off] as number));
  return out;
}

/** Calls `fn` with the element offset (in elements, from the tensor's first) of every index, row-major. */
function forEachOffset(sizes: readonly number[], strides: readonly number[], fn: (offset: number) => void): void {
  const n = sizes.length;
  if (sizes.some((s) => s === 0)) return;
  const index = new Array<number>(n).fill(0);
  let offset = 0;
  for (;;) {
    fn(offset);
    let d = n - 1;
    for (; d >= 0; d--) {
      index[d]!++;
      offset += strides[d]!;
      if (index[d]! < sizes[d]!) break;
      offset -= index[d]! * strides[d]!;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

/** A fresh contiguous float32 tensor on the device holding `values`. */
function fromValues(allocator: Allocator, sizes: readonly number[], values: Float32Array): Tensor {
  const out = empty_generic(sizes, allocator, ScalarType.Float);
  (out.storage.data(ScalarType.Float) as Float32Array).set(values, out.storage.arrayOffset(ScalarType.Float));
  return out;
}

function broadcastShape(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = a[a.length - n + i] ?? 1;
    const y = b[b.length - n + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) {
      throw new Error(`The size of tensor a (${x}) must match the size of tensor b (${y}) at non-singleton dimension ${i}`);
    }
    out.push(x === 1 ? y : x);
  }
  return out;
}

function binary(allocator: Allocator, a: Tensor, b: Tensor, f: (x: number, y: number) => number): Tensor {
  const shape = broadcastShape(a.sizes, b.sizes);
  const x = read(a.expand(shape));
  const y = read(b.expand(shape));
  const out = new Float32Array(x.length);
  for (let i = 0; i < out.length; i++) out[i] = f(x[i]!, y[i]!);
  return fromValues(allocator, shape, out);
}

/** Writes `src` (broadcast to `self`'s shape, any device whose storage has data, any real dtype) into `self`. */
function copyInto(self: Tensor, src: Tensor): Tensor {
  for (const t of [self, src]) {
    if (t.scalarType === ScalarType.Half || t.scalarType === ScalarType.BFloat16 || t.isComplex()) {
      throw new Error(`mydev copy_: dtype ${String(t.scalarType)} is not supported by this example device`);
    }
  }
  const s = src.expand(self.sizes);
  const sData = s.storage.data(s.scalarType);
  const sBase = s.storage.arrayOffset(s.scalarType) + s.storageOffset;
  const values: number[] = [];
  forEachOffset(s.sizes, s.strides, (off) => values.push(sData[sBase + off] as number));
  const dData: StorageArray = self.storage.data(self.scalarType);
  const dBase = self.storage.arrayOffset(self.scalarType) + self.storageOffset;
  const isBool = self.scalarType === ScalarType.Bool;
  const isInt = !isBool && !self.isFloatingPoint();
  let k = 0;
  forEachOffset(self.sizes, self.strides, (off) => {
    const v = values[k++]!;
    dData[dBase + off] = isBool ? (v !== 0 ? 1 : 0) : isInt ? Math.trunc(v) : v;
  });
  return self;
}

/** The operators this device implements itself, as `[name, kernel]` for `lib.impl(name, kernel)`. */
export function nativeKernels(allocator: Allocator): [string, UnboxedKernel][] {
  const checkDevice = (device: Device | null | undefined): void => {
    if (device != null && device.index > 0) throw new Error(`${device.toString()} does not exist: the example device has one device`);
  };
  return [
    [
      'empty.memory_format',
      (_ks, size: number[], dtype: ScalarType | null, _layout: unknown, device: Device | null) => {
        checkDevice(device);
        count(counters.native, 'aten::empty.memory_format');
        return empty_generic(size, allocator, dtype ?? torch.getDefaultDtype().scalarType);
      },
    ],
    [
      'empty_strided',
      (_ks, size: number[], stride: number[], dtype: ScalarType | null, _layout: unknown, device: Device | null) => {
        checkDevice(device);
        count(counters.native, 'aten::empty_strided');
        return empty_strided_generic(size, stride, allocator, dtype ?? torch.getDefaultDtype().scalarType);
      },
    ],
    [
      'copy_',
      (_ks, self: Tensor, src: Tensor) => {
        count(counters.native, 'aten::copy_');
        return copyInto(self, src);
      },
    ],
    [
      'add.Tensor',
      (ks, self: Tensor, other: Tensor, alpha: number) => {
        if (!onDevice(self, other)) return fallBack(ks, 'aten::add', 'Tensor', [self, other, alpha]);
        count(counters.native, 'aten::add.Tensor');
        const a = Number(alpha);
        return binary(allocator, self, other, (x, y) => x + a * y);
      },
    ],
    [
      'mul.Tensor',
      (ks, self: Tensor, other: Tensor) => {
        if (!onDevice(self, other)) return fallBack(ks, 'aten::mul', 'Tensor', [self, other]);
        count(counters.native, 'aten::mul.Tensor');
        return binary(allocator, self, other, (x, y) => x * y);
      },
    ],
    [
      'relu',
      (ks, self: Tensor) => {
        if (!onDevice(self)) return fallBack(ks, 'aten::relu', '', [self]);
        count(counters.native, 'aten::relu');
        return fromValues(
          allocator,
          self.sizes,
          read(self).map((x) => (x > 0 ? x : 0)),
        );
      },
    ],
    [
      'mm',
      (ks, self: Tensor, mat2: Tensor) => {
        if (!onDevice(self, mat2) || self.dim() !== 2 || mat2.dim() !== 2) return fallBack(ks, 'aten::mm', '', [self, mat2]);
        const [n, k] = self.sizes as [number, number];
        const [k2, m] = mat2.sizes as [number, number];
        if (k !== k2) {
          throw new Error(`mat1 and mat2 shapes cannot be multiplied (${n}x${k} and ${k2}x${m})`);
        }
        count(counters.native, 'aten::mm');
        const a = read(self);
        const b = read(mat2);
        const out = new Float32Array(n * m);
        for (let i = 0; i < n; i++) {
          for (let p = 0; p < k; p++) {
            const av = a[i * k + p]!;
            for (let j = 0; j < m; j++) out[i * m + j] = out[i * m + j]! + av * b[p * m + j]!;
          }
        }
        return fromValues(allocator, [n, m], out);
      },
    ],
    [
      'sum',
      (ks, self: Tensor, dtype: ScalarType | null) => {
        if (!onDevice(self) || (dtype != null && dtype !== ScalarType.Float)) return fallBack(ks, 'aten::sum', '', [self, dtype]);
        count(counters.native, 'aten::sum');
        let s = 0;
        for (const x of read(self)) s += x;
        return fromValues(allocator, [], Float32Array.of(s));
      },
    ],
  ];
}
