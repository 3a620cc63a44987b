// The out-of-tree backend of examples/privateuse1-backend/ (written only against 'aten-ts'): renaming the
// device as PyTorch does (golden texts from tools/golden/gen_privateuse1.py), its storage in a memory of its
// own, native kernels at PrivateUse1 with autograd through AutogradPrivateUse1, cpu_fallback for the rest
// (mutations, out=, views, factories), and a small model's forward and backward against CPU.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Device,
  DeviceType,
  DispatchKey,
  Dispatcher,
  KernelFunction,
  Library,
  cpu_fallback,
  getPrivateUse1BackendName,
  isPrivateUse1BackendRegistered,
  setAllocator,
  torch,
  type Tensor,
} from '../../src/index.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { counters, mydevModule, registerMyDev, runSmallModel } from '../../examples/privateuse1-backend/index.js';
import { loadGolden } from '../golden.js';

type Outcome = { ok: unknown } | { error: string; message: string };
interface Golden {
  before_rename: Record<string, Outcome>;
  rename_in_tree: Record<string, Outcome>;
  rename_again_same: Outcome;
  rename_again_other: Outcome;
  after_rename: Record<string, Outcome>;
  get_device_module_missing: Outcome;
  generate_again: Outcome;
  cpu_is_mydev: boolean;
  to_wrong_device: Outcome;
}
const golden = loadGolden<Golden>('privateuse1.json');

function outcome(fn: () => unknown): Outcome {
  try {
    const v = fn();
    return { ok: v === undefined ? null : v };
  } catch (e) {
    return { error: 'RuntimeError', message: (e as Error).message };
  }
}

const deviceString = (s: string) => () => Device.parse(s).toString();

function collectWarnings<T>(fn: () => T): [T, string[]] {
  const seen: string[] = [];
  const old = setWarningHandler((m) => seen.push(m));
  try {
    return [fn(), seen];
  } finally {
    setWarningHandler(old);
  }
}

// Renaming is once per process: these run in order, before and after the example registers `mydev`.
describe('PrivateUse1 device name (torch.utils.rename_privateuse1_backend)', () => {
  it('before the rename: privateuseone parses, mydev does not', () => {
    expect(isPrivateUse1BackendRegistered()).toBe(false);
    for (const [s, want] of Object.entries(golden.before_rename)) expect(outcome(deviceString(s)), s).toEqual(want);
  });

  it('refuses in-tree names, with PyTorch text, and leaves the name unchanged', () => {
    for (const [n, want] of Object.entries(golden.rename_in_tree)) {
      expect(
        outcome(() => torch.utils.rename_privateuse1_backend(n)),
        n,
      ).toEqual(want);
    }
    expect(getPrivateUse1BackendName()).toBe('privateuseone');
  });

  it('get_device_module before registration is PyTorch error', () => {
    expect(outcome(() => torch.get_device_module('privateuseone'))).toEqual({
      error: 'RuntimeError',
      message: "Device 'privateuseone' does not have a corresponding module registered as 'torch.privateuseone'.",
    });
  });

  it('after registerMyDev(): device strings, renaming again, generated methods', () => {
    registerMyDev();
    expect(getPrivateUse1BackendName()).toBe('mydev');
    expect(outcome(() => torch.utils.rename_privateuse1_backend('mydev'))).toEqual(golden.rename_again_same);
    expect(outcome(() => torch.utils.rename_privateuse1_backend('other'))).toEqual(golden.rename_again_other);
    for (const [s, want] of Object.entries(golden.after_rename)) expect(outcome(deviceString(s)), s).toEqual(want);
    expect(outcome(() => torch.utils.generate_methods_for_privateuse1_backend())).toEqual(golden.generate_again);
    expect(torch.ones(2).is_mydev).toBe(golden.cpu_is_mydev);
    expect(outcome(() => torch.ones(2).mydev('cpu'))).toEqual(golden.to_wrong_device);
    expect(torch.get_device_module('mydev')).toBe(mydevModule);
    expect(torch.get_device_module('mydev:0')).toBe(mydevModule);
    expect(() => torch._register_device_module('mydev', {})).toThrow(
      "The runtime module of 'mydev' has already been registered with 'mydev'",
    );
    expect(() => torch.utils.generate_methods_for_privateuse1_backend({ for_tensr: true } as never)).toThrow(
      "generate_methods_for_privateuse1_backend() got an unexpected keyword argument 'for_tensr'",
    );
  });

  it("torch.manual_seed seeds the renamed backend through its module's manual_seed_all (_seed_custom_device)", () => {
    registerMyDev();
    const m = mydevModule as { manual_seed_all?: (s: bigint) => void };
    const seen: bigint[] = [];
    torch.manual_seed(3); // a module without manual_seed_all is skipped
    m.manual_seed_all = (s) => void seen.push(s);
    try {
      torch.manual_seed(5);
      torch.manual_seed(2n ** 40n + 1n);
      expect(seen).toEqual([5n, 2n ** 40n + 1n]);
      expect(torch.initial_seed()).toBe(2n ** 40n + 1n);
    } finally {
      delete m.manual_seed_all;
    }
  });
});

describe('examples/privateuse1-backend: tensors on mydev', () => {
  let allocator: ReturnType<typeof registerMyDev>;
  beforeAll(() => {
    allocator = registerMyDev();
  });

  it('x.mydev(), device=, to(): storage in the device memory, values unchanged, printed with the device', () => {
    const x = torch.tensor(
      [
        [1, -2, 3],
        [4, 5, -6],
      ],
      { dtype: torch.float32 },
    );
    const d = x.mydev();
    expect(d.is_mydev).toBe(true);
    expect(d.device.toString()).toBe('mydev:0');
    expect(d.device.type).toBe(DeviceType.PrivateUse1);
    expect(d.storage.dataPtr?.memory).toBe(allocator.memory);
    expect(d.cpu().tolist()).toEqual(x.tolist());
    expect(String(d)).toBe("tensor([[ 1., -2.,  3.],\n        [ 4.,  5., -6.]], device='mydev:0')");
    expect(torch.zeros([2, 2], { device: 'mydev' }).device.toString()).toBe('mydev:0');
    expect(x.to('mydev:0').is_mydev).toBe(true);
    expect(() => torch.empty(2, { device: 'mydev:1' })).toThrow('mydev:1 does not exist');
  });

  it('native kernels compute on the device; other dtypes and operators fall back to CPU', () => {
    counters.native.clear();
    counters.fallback.clear();
    const a = torch.tensor(
      [
        [1, 2],
        [3, 4],
      ],
      { dtype: torch.float32 },
    );
    const b = torch.tensor(
      [
        [0.5, -1],
        [2, 0.25],
      ],
      { dtype: torch.float32 },
    );
    const [da, db] = [a.mydev(), b.mydev()];
    expect(torch.mm(da, db).cpu().tolist()).toEqual(torch.mm(a, b).tolist());
    expect(torch.mm(da.t(), db).cpu().tolist()).toEqual(torch.mm(a.t(), b).tolist()); // strided input
    expect(da.add(db, { alpha: 2 }).cpu().tolist()).toEqual(a.add(b, { alpha: 2 }).tolist());
    expect(da.mul(db.select(0, 1)).cpu().tolist()).toEqual(a.mul(b.select(0, 1)).tolist()); // broadcast view
    expect(torch.relu(da.sub(db)).cpu().tolist()).toEqual(torch.relu(a.sub(b)).tolist());
    expect(da.sum().item()).toBe(10);
    for (const op of ['aten::mm', 'aten::add.Tensor', 'aten::mul.Tensor', 'aten::relu', 'aten::sum']) {
      expect(counters.native.get(op), op).toBeGreaterThan(0);
    }
    expect(counters.fallback.get('aten::sub.Tensor')).toBe(1);
    expect(counters.fallback.get('aten::_local_scalar_dense')).toBe(1);
    // int64 is not native: add falls back, with PyTorch's promotion.
    const li = torch.tensor([1, 2, 3]).mydev();
    const r = li.add(li);
    expect([r.dtype, r.device.toString(), r.cpu().tolist()]).toEqual([torch.int64, 'mydev:0', [2, 4, 6]]);
    expect(counters.fallback.get('aten::add.Tensor')).toBe(1);
  });

  it('cpu_fallback writes mutated arguments back and returns the original tensor', () => {
    const x = torch.tensor([1, 2, 3], { dtype: torch.float32 }).mydev();
    const before = x.storage;
    const r = x.sub_(torch.ones(3).mydev());
    expect(r).toBe(x);
    expect(x.storage).toBe(before);
    expect(x.cpu().tolist()).toEqual([0, 1, 2]);
    // out=: written into the device tensor, resized as an out= tensor is.
    const out = torch.empty([0], { device: 'mydev' });
    const res = torch.sub(x, x, { out });
    expect(res).toBe(out);
    expect([out.size(), out.cpu().tolist()]).toEqual([[3], [0, 0, 0]]);
    // A mutation through a view reaches the base.
    const base = torch.zeros([2, 3], { device: 'mydev' });
    base.select(0, 1).fill_(7);
    expect(base.cpu().tolist()).toEqual([
      [0, 0, 0],
      [7, 7, 7],
    ]);
  });

  it('cpu_fallback copies Tensor[] arguments and every one of several outputs', () => {
    const a = torch.tensor(
      [
        [1, 5],
        [7, 2],
      ],
      { dtype: torch.float32 },
    );
    const b = torch.tensor([[0, 9]], { dtype: torch.float32 });
    const c = torch.cat([a.mydev(), b.mydev()]);
    expect([c.device.toString(), c.cpu().tolist()]).toEqual(['mydev:0', torch.cat([a, b]).tolist()]);
    const [values, indices] = torch.max(a.mydev(), 1);
    expect([values.device.toString(), indices.device.toString(), indices.dtype]).toEqual(['mydev:0', 'mydev:0', torch.int64]);
    expect([values.cpu().tolist(), indices.cpu().tolist()]).toEqual([
      [5, 7],
      [1, 0],
    ]);
  });

  it('factories with device=mydev run on CPU and land on the device (the Device argument is swapped)', () => {
    const r = torch.arange(5, { device: 'mydev' });
    expect([r.device.toString(), r.dtype, r.cpu().tolist()]).toEqual(['mydev:0', torch.int64, [0, 1, 2, 3, 4]]);
    torch.manualSeed(3);
    const g = torch.randn([4], { device: 'mydev' });
    torch.manualSeed(3);
    expect(g.cpu().tolist()).toEqual(torch.randn([4]).tolist());
  });

  it('view operators without a device kernel warn and copy, or are refused with error_on_views', () => {
    using lib = new Library('FRAGMENT', 'pu1test');
    lib.def('myview(Tensor(a) x) -> Tensor(a)');
    lib.impl('myview', (_ks, x: Tensor) => x.view(-1), 'CPU');
    const op = Dispatcher.singleton().findSchemaOrThrow('pu1test::myview', '');
    const x = torch.ones([2, 2]).mydev();
    const [r, warnings] = collectWarnings(() => op.call(x) as Tensor);
    expect(r.device.toString()).toBe('mydev:0');
    expect(r.size()).toEqual([4]);
    expect(r.storage).not.toBe(x.storage);
    expect(warnings).toEqual([
      'The operator pu1test::myview appears to be a view operator, but it has no implementation for the backend "mydev:0". ' +
        "View operators don't support falling back to run on the CPU, since the tensor's storage cannot be shared across devices.",
    ]);
    using strict = new Library('IMPL', 'pu1test', 'PrivateUse1');
    strict.impl(
      'myview',
      KernelFunction.fromBoxed((o, ks, stack) => cpu_fallback(o, ks, stack, { error_on_views: true })),
    );
    expect(() => op.call(x)).toThrow(
      'The operator pu1test::myview appears to be a view operator, but it has no implementation for the backend "mydev:0". ' +
        "View operators don't support since the tensor's storage cannot be shared across devices.",
    );
  });

  it('cpu_fallback refuses the operators the backend must own, instead of recursing', () => {
    const op = Dispatcher.singleton().findSchemaOrThrow('aten::copy_', '');
    const x = torch.ones(2).mydev();
    expect(() => cpu_fallback(op, op.computeDispatchKeySet(x, x, false), [x, x, false])).toThrow(
      'cpu_fallback cannot run aten::copy_: the fallback copies tensors with it.',
    );
  });

  it('autograd: AutogradPrivateUse1 is served for native kernels; gradients stay on the device', () => {
    for (const [name, overload] of [
      ['aten::mm', ''],
      ['aten::relu', ''],
      ['aten::add', 'Tensor'],
    ] as const) {
      const op = Dispatcher.singleton().findSchemaOrThrow(name, overload);
      expect(op.computedKernelForDispatchKey(DispatchKey.PrivateUse1)?.debug, name).toMatch(/privateuse1-backend/);
      expect(op.computedKernelForDispatchKey(DispatchKey.AutogradPrivateUse1), name).not.toBeNull();
    }
    const w = torch
      .tensor(
        [
          [0.5, -1],
          [2, 0.25],
        ],
        { dtype: torch.float32 },
      )
      .mydev()
      .requiresGrad_();
    const x = torch
      .tensor(
        [
          [1, 2],
          [3, 4],
        ],
        { dtype: torch.float32 },
      )
      .mydev();
    const loss = torch.relu(torch.mm(x, w)).sum();
    expect(loss.gradFn?.name()).toBe('SumBackward0');
    loss.backward();
    expect(w.grad!.device.toString()).toBe('mydev:0');
    const wc = torch
      .tensor(
        [
          [0.5, -1],
          [2, 0.25],
        ],
        { dtype: torch.float32 },
      )
      .requiresGrad_();
    torch.relu(torch.mm(x.cpu(), wc)).sum().backward();
    expect(w.grad!.cpu().tolist()).toEqual(wc.grad!.tolist());
  });

  it('a small model (Linear-ReLU-Linear, MSE loss) forward and backward on mydev equals CPU', () => {
    counters.native.clear();
    counters.fallback.clear();
    const r = runSmallModel();
    expect(r.devLoss).toBeCloseTo(r.cpuLoss, 5);
    expect(r.maxGradDiff).toBeLessThan(1e-5);
    expect(r.devGradDevice).toBe('mydev:0');
    expect(counters.native.get('aten::mm')).toBeGreaterThan(0);
    expect(counters.native.get('aten::relu')).toBeGreaterThan(0);
    expect(counters.fallback.get('aten::addmm')).toBeGreaterThan(0);
    expect(counters.fallback.get('aten::mse_loss')).toBeGreaterThan(0);
  });

  it('dispose() gives the block back to the device allocator', () => {
    const t = torch.empty([1000], { device: 'mydev' });
    const inUse = allocator.bytesInUse;
    t.dispose();
    expect(allocator.bytesInUse).toBe(inUse - 4000);
  });

  it('setAllocator checks the allocator it is given', () => {
    const wrong = { device: new Device(DeviceType.CPU), allocate: () => {}, free: () => {} };
    expect(() => setAllocator(DeviceType.PrivateUse1, wrong)).toThrow(
      "setAllocator(): the allocator's device is cpu, expected a device of type mydev",
    );
  });
});
