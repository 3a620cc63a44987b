// `npm start`: a short tour that prints real dispatch facts computed by aten-ts.
import {
  Device,
  DispatchKey,
  DispatchKeySet,
  Layout,
  NUM_RUNTIME_ENTRIES,
  ScalarType,
  afterAutogradKeyset,
  computeDispatchKey,
  defaultExcludedSet,
  defaultIncludedSet,
  dispatchKeyToString,
  dtypeName,
  getDispatchTableIndexForDispatchKey,
  getRuntimeDispatchKeySet,
  promoteTypes,
  tensorDispatchKeySet,
} from '../c10/index.js';
import { torch } from '../api/index.js';
import { Dispatcher, setDispatchTraceEnabled, setDispatchTraceSink } from '../dispatch/index.js';

/** The key set PyTorch gives a fresh tensor with these options (TensorImpl's constructor). */
function tensorKeySet(dtype: ScalarType, layout: Layout, device: Device): DispatchKeySet {
  return tensorDispatchKeySet(computeDispatchKey(dtype, layout, device));
}

export function tour(print: (line: string) => void): void {
  print('aten-ts — a tour of the dispatch core');
  print('');
  print('Key sets of fresh tensors (as torch._C._dispatch_keys prints them):');
  const cases: [string, ScalarType, Layout, string][] = [
    ['torch.ones(2)', ScalarType.Float, Layout.Strided, 'cpu'],
    ['torch.ones(2, dtype=torch.int64)', ScalarType.Long, Layout.Strided, 'cpu'],
    ["torch.ones(2, device='meta')", ScalarType.Float, Layout.Strided, 'meta'],
    ['torch.ones(2).to_sparse()', ScalarType.Float, Layout.Sparse, 'cpu'],
    ["a CUDA tensor on 'cuda:1'", ScalarType.Float, Layout.Strided, 'cuda:1'],
  ];
  for (const [what, dtype, layout, device] of cases) {
    const ks = tensorKeySet(dtype, layout, Device.parse(device));
    print(`  ${what.padEnd(34)} ${ks.toString()}`);
    // What a call sees: the tensor's keys plus TLS included, minus TLS excluded (Autocast by default).
    const callKs = ks.or(defaultIncludedSet).minus(defaultExcludedSet);
    print(
      `  ${''.padEnd(34)} raw ${ks.raw}; a call dispatches first to ` +
        `${dispatchKeyToString(callKs.highestPriorityTypeId())} (table slot ${callKs.getDispatchTableIndexForDispatchKeySet()})`,
    );
  }
  print('');
  print(`Every operator has a dispatch table of ${NUM_RUNTIME_ENTRIES} slots. A few of them:`);
  for (const k of [
    DispatchKey.CPU,
    DispatchKey.CUDA,
    DispatchKey.Meta,
    DispatchKey.QuantizedCPU,
    DispatchKey.SparseCPU,
    DispatchKey.BackendSelect,
    DispatchKey.ADInplaceOrView,
    DispatchKey.AutogradOther,
    DispatchKey.AutogradCPU,
    DispatchKey.AutocastCPU,
    DispatchKey.PythonDispatcher,
  ]) {
    print(`  ${dispatchKeyToString(k).padEnd(18)} slot ${getDispatchTableIndexForDispatchKey(k)}`);
  }
  print('');
  const cpu = tensorKeySet(ScalarType.Float, Layout.Strided, Device.parse('cpu'));
  print('An autograd kernel redispatches below itself with ks & after_autograd_keyset:');
  print(`  ${cpu.toString()} & after_autograd_keyset = ${cpu.and(afterAutogradKeyset).toString()}`);
  print('');
  print(
    'Alias keys expand to runtime keys, e.g. CompositeExplicitAutogradNonFunctional covers ' +
      `${[...getRuntimeDispatchKeySet(DispatchKey.CompositeExplicitAutogradNonFunctional)].length} runtime keys.`,
  );
  print('');
  print('A real call, traced (ATEN_TS_SHOW_DISPATCH_TRACE=1 does the same):');
  const x = torch.arange(6, { dtype: 'float32' });
  const prevSink = setDispatchTraceSink((line) => print(`  ${line}`));
  setDispatchTraceEnabled(true);
  let y;
  try {
    y = x.view(2, 3).t();
  } finally {
    setDispatchTraceEnabled(false);
    setDispatchTraceSink(prevSink);
  }
  print('  x.view(2, 3).t() is');
  for (const line of y.toString().split('\n')) print(`    ${line}`);
  print('');
  print('Where aten::view resolves, per key (npx aten-ts dispatch-table aten::view):');
  const table = Dispatcher.singleton().dumpComputedTable('aten::view');
  for (const line of table.split('\n')) {
    if (/^(Undefined|CPU|Meta|AutogradCPU|AutogradMeta|ADInplaceOrView|NestedTensorCPU):/.test(line)) print(`  ${line}`);
  }
  print('');
  print('Autograd is the first key every call meets: a recorded call, traced, and its backward:');
  const w = torch.tensor([0.5, -1.5], { requiresGrad: true });
  const prevSink2 = setDispatchTraceSink((line) => print(`  ${line}`));
  setDispatchTraceEnabled(true);
  let loss;
  try {
    loss = w.mul(w).sum();
  } finally {
    setDispatchTraceEnabled(false);
    setDispatchTraceSink(prevSink2);
  }
  loss.backward();
  print(`  loss = ${loss.toString()}`);
  print(`  loss.gradFn.nextFunctions = ${loss.gradFn?.nextFunctions.map(([n, i]) => `[${n?.name() ?? 'null'}, ${i}]`).join(', ') ?? ''}`);
  print(`  w.grad = ${w.grad?.toString() ?? 'null'}`);
  print('');
  print('Type promotion (torch.promote_types):');
  for (const [a, b] of [
    [ScalarType.Byte, ScalarType.Char],
    [ScalarType.Half, ScalarType.BFloat16],
    [ScalarType.Long, ScalarType.Float],
    [ScalarType.Double, ScalarType.ComplexFloat],
  ] as const) {
    print(`  ${dtypeName(a)} + ${dtypeName(b)} -> ${dtypeName(promoteTypes(a, b))}`);
  }
}
