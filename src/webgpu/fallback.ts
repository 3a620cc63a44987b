// The webgpu device's fallback for operators without a kernel: by default an error naming the operator, as
// PyTorch's MPS backend raises; with the fallback enabled (`torch.webgpu.set_fallback(true)` or
// `init({ fallback: true })`, the counterpart of PYTORCH_ENABLE_MPS_FALLBACK=1) a one-time warning per operator
// and the operator run on the CPU. The counterpart of aten/src/ATen/mps/MPSFallback.mm (with
// at::native::cpu_fallback, src/kernels/CPUFallback.ts, whose rules for written arguments and views it keeps).
import { Device, DeviceType, NotImplementedError, Tensor, torch } from 'aten-ts';
import type { GpuBlock, WebGPURuntime } from './runtime.js';

type OpOverload = torch.library.OpOverload;

// Note [The webgpu CPU fallback]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// at::native::cpu_fallback copies the operands to the CPU synchronously, which a GPU buffer cannot do (Note
// [Reading webgpu tensors]). The device's fallback therefore splits it in two. Now, synchronously: the
// operator runs on meta tensors of the operands' sizes, strides and dtypes, which gives the results' shapes,
// and the results are allocated on the device and returned at once. Later, as a host job at the operator's
// place in the stream (Note [Host jobs]): the operands' storages are read, the operator runs on the CPU, and
// the results (and the arguments the schema marks as written, `Tensor(a!)`) are uploaded into the device
// tensors the caller already holds; GPU work issued meanwhile waits for it. What this cannot serve raises
// instead, naming the operator: a result whose shape depends on the values (no meta kernel can give it:
// `nonzero`, `masked_select`), and a result that is not a tensor (a number or bool must reach the host now).
// CPU tensors among the operands are cloned now, so later writes to them do not leak into the job. As in
// cpu_fallback, a view operator returns a copy (with a warning). The job's errors (a bad index on the CPU)
// are raised by the next read or `synchronize()`.

let enabled = false;
const warned = new Set<string>();

/** `torch.webgpu.set_fallback(on)`: whether operators without a webgpu kernel run on the CPU (with a warning). */
export function set_fallback(on: boolean): void {
  enabled = on;
}

/** Whether the CPU fallback is on (See {@link set_fallback}). */
export function fallback_enabled(): boolean {
  return enabled;
}

function operatorName(op: OpOverload): string {
  return op.name();
}

/** The missing-kernel error, as PyTorch's MPS raises it (NotImplementedError naming the operator). */
function notImplemented(op: OpOverload): never {
  throw new NotImplementedError(
    `The operator '${operatorName(op)}' is not currently implemented for the webgpu device. The operators it has ` +
      'are listed in aten-ts/src/webgpu/README.md. As a temporary fix, you can call `torch.webgpu.set_fallback(true)` ' +
      '(or `init({ fallback: true })`) to use the CPU as a fallback for this op. WARNING: this will be slower than ' +
      'running natively on webgpu.',
  );
}

function cannot(op: OpOverload, why: string): never {
  throw new NotImplementedError(
    `The operator '${operatorName(op)}' is not currently implemented for the webgpu device, and the CPU fallback ` +
      `cannot run it: ${why} (See Note [The webgpu CPU fallback]).`,
  );
}

const isDevice = (t: Tensor): boolean => t.device.type === DeviceType.PrivateUse1;
const isTensorList = (v: unknown): v is (Tensor | null)[] =>
  Array.isArray(v) && v.some((x) => x instanceof Tensor) && v.every((x) => x === null || x instanceof Tensor);

/** Maps every tensor in an argument (a tensor or a Tensor?[] list) with `f`. */
function mapTensors(v: unknown, f: (t: Tensor) => Tensor): unknown {
  if (v instanceof Tensor) return f(v);
  if (isTensorList(v)) return v.map((t) => (t === null ? null : f(t)));
  return v;
}

/** The boxed fallback at PrivateUse1: raises, or (enabled) runs `op` on the CPU as Note [The webgpu CPU fallback] says. */
export function webgpuFallback(rt: WebGPURuntime, op: OpOverload, args: unknown[]): unknown {
  if (!enabled) notImplemented(op);
  const schema = op._schema;
  const name = operatorName(op);
  if (!warned.has(name)) {
    warned.add(name);
    console.warn(
      `The operator '${name}' is not currently supported on the webgpu backend and will fall back to run on the CPU. ` +
        'This may have performance implications.',
    );
  }
  for (const r of schema.returns) {
    const type = String(r.type);
    if (!type.startsWith('Tensor')) cannot(op, `it returns a ${type} to the host, which a webgpu tensor can give only asynchronously`);
  }
  // Now: the results' shapes from the meta kernels, and device tensors for them.
  const meta = new Device(DeviceType.Meta);
  const toMeta = (t: Tensor): Tensor => torch.empty_strided([...t.sizes], [...t.strides], { dtype: t.dtype, device: 'meta' });
  const metaArgs = args.map((v) => (v instanceof Device && v.type === DeviceType.PrivateUse1 ? meta : mapTensors(v, toMeta)));
  let metaOut: unknown;
  try {
    metaOut = torch.no_grad(() => op.handle.call(...metaArgs));
  } catch (e) {
    cannot(op, `the shapes of its results depend on the values, or it has no meta kernel (${(e as Error).message.split('\n')[0]})`);
  }
  const returns = schema.returns;
  const metaList: unknown[] = returns.length === 1 ? [metaOut] : returns.length === 0 ? [] : (metaOut as unknown[]);
  const device = new Device(DeviceType.PrivateUse1, 0);
  // The results' buffers, kept apart from their tensors: the caller may dispose of a result before the job
  // fills it while work it issued meanwhile still reads the buffer (its release is held after the job).
  const blocks = new Map<Tensor, GpuBlock | null>();
  const results: unknown[] = metaList.map((m, r) => {
    const alias = returns[r]!.aliasInfo;
    if (alias?.isWrite === true) {
      const i = schema.arguments.findIndex((a) => a.aliasInfo !== undefined && a.aliasInfo.toString() === alias.toString());
      if (i < 0) cannot(op, `a returned tensor aliases no argument (${returns[r]!.toString()})`);
      return args[i];
    }
    if (alias !== undefined) {
      console.warn(
        `The operator ${name} appears to be a view operator, but it has no implementation for the backend "webgpu:0". ` +
          "View operators don't support falling back to run on the CPU, since the tensor's storage cannot be shared across devices.",
      );
    }
    const alloc = (t: Tensor): Tensor => {
      const fresh = torch.empty([...t.sizes], { dtype: t.dtype, device });
      blocks.set(fresh, fresh.storage.deviceContext as GpuBlock | null);
      return fresh;
    };
    if (m instanceof Tensor || isTensorList(m)) return mapTensors(m, alloc);
    return m;
  });
  // Later: the operands' storages read, the CPU kernel, the uploads (Note [Host jobs]).
  const reads: { buffer: GpuBlock['buffer']; offset: number; bytes: number }[] = [];
  const readIndex = new Map<Tensor, number>();
  const plan = args.map((v) =>
    v instanceof Device && v.type === DeviceType.PrivateUse1
      ? new Device(DeviceType.CPU)
      : mapTensors(v, (t) => {
          if (!isDevice(t)) return t.clone();
          if (!readIndex.has(t)) {
            readIndex.set(t, reads.length);
            reads.push({ buffer: (t.storage.deviceContext as GpuBlock).buffer, offset: 0, bytes: t.storage.nbytes });
          }
          return t;
        }),
  );
  rt.hostJob(reads, (bytes) => {
    const hosts = new Map<Tensor, Tensor>();
    const onHost = (t: Tensor): Tensor => {
      if (!isDevice(t)) return t;
      let h = hosts.get(t);
      if (h === undefined) {
        const data = bytes[readIndex.get(t)!]!;
        const flat = torch.empty([Math.floor(data.byteLength / t.element_size())], { dtype: t.dtype });
        const { data: view, base } = flat.dataView();
        new Uint8Array(view.buffer, view.byteOffset + base * view.BYTES_PER_ELEMENT, data.byteLength).set(new Uint8Array(data));
        h = flat.as_strided([...t.sizes], [...t.strides], t.storageOffset);
        hosts.set(t, h);
      }
      return h;
    };
    const cpuArgs = plan.map((v) => mapTensors(v, onHost));
    // A fresh result is written into its buffer (See `blocks`); a written argument is copied into (a view).
    const upload = (dev: Tensor | null, host: Tensor | null | undefined): void => {
      if (dev === null || host == null || dev === host) return;
      const block = blocks.get(dev);
      if (block === undefined) {
        if (dev.storage.deviceContext !== null) dev.copy_(host);
        return;
      }
      if (block === null || dev.numel() === 0) return;
      const c = host.to({ dtype: dev.dtype }).contiguous();
      const { data, base } = c.dataView();
      rt.write(block.buffer, new Uint8Array(data.buffer, data.byteOffset + base * data.BYTES_PER_ELEMENT, c.numel() * c.element_size()));
    };
    torch.no_grad(() => {
      const out = op.handle.call(...cpuArgs);
      const outs: unknown[] = returns.length === 1 ? [out] : returns.length === 0 ? [] : (out as unknown[]);
      // Written arguments first (their CPU twins were mutated), then the results.
      schema.arguments.forEach((a, i) => {
        if (!a.isWrite) return;
        const [dev, host] = [args[i], cpuArgs[i]];
        if (dev instanceof Tensor && host instanceof Tensor) upload(dev, host);
        if (isTensorList(dev) && isTensorList(host)) dev.forEach((t, j) => upload(t, host[j]));
      });
      results.forEach((dev, r) => {
        if (returns[r]!.aliasInfo?.isWrite === true) return;
        const host = outs[r];
        if (dev instanceof Tensor && host instanceof Tensor) upload(dev, host);
        else if (isTensorList(dev) && isTensorList(host)) dev.forEach((t, j) => upload(t, host[j]));
      });
    });
  });
  return returns.length === 1 ? results[0] : results;
}
