// The per-dispatch-key emitter: src/generated/Register<Key>.ts, the kernels of one dispatch key with the
// generated wrappers of the structured kernels, and src/generated/CPUFunctions.ts, the direct CPU entry points
// (`at::cpu::add`). Mirrors torchgen/dest/register_dispatch_key.py (RegisterDispatchKey and
// StructuredRegisterDispatchKey) and the CPUFunctions.h half of torchgen/gen.py. Pure: returns strings.

import type { NativeFunction } from '../model.js';
import { defaultExpr } from '../api/python.js';
import { GENERATED_HEADER, TsTypes, paramName } from '../api/types.js';

/** The generated wrappers of one structured function, per backend. */
interface Wrappers {
  readonly cpu: string[];
  readonly meta: string[];
}

/**
 * The CPU and Meta wrappers of a structured function (torchgen's StructuredRegisterDispatchKey: the
 * functional, in-place and out= classes; the Meta ones run the meta function only), and its `atenCpu` entries.
 * `structuredOut` is the `structured: True` out= entry the function belongs to: with `structured_inherits:
 * TensorIteratorBase` its meta returns the iterator; without, its meta sets the outputs
 * (Note [Structured kernels without a TensorIterator]).
 */
function structuredWrappers(
  ctx: TsTypes,
  nf: NativeFunction,
  structuredOut: NativeFunction,
  kernel: string,
  cpuLines: string[],
  overloaded: boolean,
): Wrappers {
  const args = nf.func.arguments;
  const kind = nf.func.kind();
  const typed = args.map((a) => `${paramName(a.name)}: ${ctx.argType(a.type)}`);
  const names = args.map((a) => paramName(a.name));
  const out = args.filter((a) => a.isOut).map((a) => paramName(a.name));
  const rets = nf.func.returns;
  const retType = rets.length === 1 ? 'Tensor' : `[${rets.map((r) => ctx.returnType(r)).join(', ')}]`;
  const W =
    structuredOut.structuredInherits === null
      ? metaBaseWrappers(ctx, nf, structuredOut, kernel, retType)
      : iteratorWrappers(ctx, nf, kernel);
  // at::cpu::<name>: defaults filled in; out= as `<name>_out(out, ...)` and `<name>_outf(..., out)`.
  const withDefaults = args.map((a, i) => {
    if (a.isOut || a.defaultValue === undefined || args.slice(i + 1).some((b) => !b.isOut && b.defaultValue === undefined))
      return typed[i]!;
    return `${typed[i]!} = ${defaultExpr(nf, a.defaultValue)}`;
  });
  // Note [atenCpu names of overloads]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // C++ overloads at::cpu::eq by argument types; a JavaScript object
  // cannot, so where one name has several structured overloads of a kind each entry takes its handle name
  // (`eq_Tensor`, `eq_Scalar`, `eq__Tensor`, `eq_Tensor_out`), as `at::_ops::eq_Tensor` does.
  const base = nf.func.name;
  const cpp = `at::cpu::${base}${kind === 'out' ? '_out' : ''}${overloaded ? ` (${nf.opName})` : ''}`;
  if (kind === 'out') {
    const key = overloaded ? nf.handleName : `${base}_out`;
    const rest = withDefaults.filter((_, i) => !args[i]!.isOut);
    cpuLines.push(`  /** \`${cpp}\` */`);
    cpuLines.push(
      `  ${key}: (${[...out.map((o) => `${o}: Tensor`), ...rest].join(', ')}): ${retType} => cpu_${nf.handleName}(NO_KEYS, ${names.join(', ')}),`,
    );
    cpuLines.push(`  /** \`${cpp.replace('_out', '_outf')}\` */`);
    cpuLines.push(`  ${key}f: (${typed.join(', ')}): ${retType} => cpu_${nf.handleName}(NO_KEYS, ${names.join(', ')}),`);
  } else {
    const key = overloaded ? nf.handleName : base;
    cpuLines.push(`  /** \`${cpp}\` */`);
    cpuLines.push(`  ${key}: (${withDefaults.join(', ')}): ${retType} => cpu_${nf.handleName}(NO_KEYS, ${names.join(', ')}),`);
  }
  return W;
}

/** The wrappers of a TensorIteratorBase kernel: `meta(out | null, ...args)` returns the iterator. */
function iteratorWrappers(ctx: TsTypes, nf: NativeFunction, kernel: string): Wrappers {
  const args = nf.func.arguments;
  const kind = nf.func.kind();
  const typed = args.map((a) => `${paramName(a.name)}: ${ctx.argType(a.type)}`);
  const names = args.map((a) => paramName(a.name));
  const metaArgs = args.filter((a) => !a.isOut).map((a) => paramName(a.name));
  const W: Wrappers = { cpu: [], meta: [] };
  const self = names[0] ?? 'self';
  const out = args.filter((a) => a.isOut).map((a) => paramName(a.name));
  if (kind === 'out' && out.length !== 1)
    ctx.fail(
      'a structured_inherits: TensorIteratorBase kernel has exactly one out= tensor (several outputs need a MetaBase kernel: drop structured_inherits)',
    );
  const outName = out[0] ?? 'out';
  for (const backend of ['cpu', 'meta'] as const) {
    const L = W[backend];
    L.push(`/** \`${nf.opName}\`, ${backend === 'cpu' ? 'CPU' : 'Meta'} (${kind}). */`);
    L.push(`${backend === 'cpu' ? 'export ' : ''}function ${backend}_${nf.handleName}(_ks: DispatchKeySet, ${typed.join(', ')}): Tensor {`);
    L.push(`  const k = ${kernel};`);
    if (kind === 'functional') {
      if (backend === 'cpu') {
        L.push(`  const fast = k.fast?.(${metaArgs.join(', ')});`);
        L.push('  if (fast) return fast;');
      }
      L.push(`  const iter = k.meta(null, ${metaArgs.join(', ')});`);
      if (backend === 'cpu') L.push(`  k.impl(iter, ${metaArgs.join(', ')});`);
      L.push('  return iter.output() as Tensor;');
    } else if (kind === 'inplace') {
      L.push(`  const iter = k.meta(${self}, ${metaArgs.join(', ')});`);
      L.push(`  checkInplace(${self}, iter);`);
      if (backend === 'cpu') {
        L.push(`  k.impl(iter, ${metaArgs.join(', ')});`);
      }
      L.push(`  return ${self};`);
    } else if (kind === 'out') {
      L.push(`  ${backend === 'cpu' ? 'const iter = ' : ''}k.meta(${outName}, ${metaArgs.join(', ')});`);
      if (backend === 'cpu') {
        L.push(`  k.impl(iter, ${metaArgs.join(', ')});`);
      }
      L.push(`  return ${outName};`);
    } else {
      ctx.fail(`structured kernels are generated for functional, in-place and out= overloads, not a ${kind} one`);
    }
    L.push('}');
    L.push('');
  }
  return W;
}

/**
 * The wrappers of a MetaBase kernel (no `structured_inherits`): `meta(outs | null, ...args)` returns the
 * output specs and the precomputed values; the wrapper allocates (functional), checks (in-place) or resizes
 * (out=) every output in order, then calls `impl(outs, ...implArgs)`. See Note [Structured kernels without a
 * TensorIterator].
 */
function metaBaseWrappers(ctx: TsTypes, nf: NativeFunction, structuredOut: NativeFunction, kernel: string, retType: string): Wrappers {
  const args = nf.func.arguments;
  const kind = nf.func.kind();
  const typed = args.map((a) => `${paramName(a.name)}: ${ctx.argType(a.type)}`);
  const names = args.map((a) => paramName(a.name));
  const metaArgs = args.filter((a) => !a.isOut).map((a) => paramName(a.name));
  // The impl's arguments: each precomputed argument replaced by the meta's values (torchgen's Precompute).
  const implArgs = args
    .filter((a) => !a.isOut)
    .flatMap((a) => {
      const p = structuredOut.precomputed.find((q) => q.replace === a.name);
      return p ? p.with.map((w) => `m.precomputed.${paramName(w.name)}`) : [paramName(a.name)];
    });
  const nOut = structuredOut.func.arguments.filter((a) => a.isOut).length;
  const rets = nf.func.returns;
  if (rets.length !== nOut)
    ctx.fail(`returns ${rets.length} values but its structured out= overload '${structuredOut.opName}' writes ${nOut}`);
  const self = names[0] ?? 'self';
  const W: Wrappers = { cpu: [], meta: [] };
  for (const backend of ['cpu', 'meta'] as const) {
    const L = W[backend];
    L.push(`/** \`${nf.opName}\`, ${backend === 'cpu' ? 'CPU' : 'Meta'} (${kind}). */`);
    L.push(
      `${backend === 'cpu' ? 'export ' : ''}function ${backend}_${nf.handleName}(_ks: DispatchKeySet, ${typed.join(', ')}): ${retType} {`,
    );
    L.push(`  const k = ${kernel};`);
    let outs: string[];
    if (kind === 'functional') {
      L.push(`  const m = k.meta(null, ${metaArgs.join(', ')});`);
      outs = rets.map((_, i) => `out${i}`);
      outs.forEach((o, i) => L.push(`  const ${o} = allocateStructuredOutput(m, ${i});`));
    } else if (kind === 'inplace') {
      if (nOut !== 1) ctx.fail(`an in-place overload of a structured kernel with ${nOut} outputs is not generated`);
      L.push(`  const m = k.meta([${self}], ${metaArgs.join(', ')});`);
      L.push(`  checkInplaceOutput(${self}, m, 0);`);
      outs = [self];
    } else if (kind === 'out') {
      outs = args.filter((a) => a.isOut).map((a) => paramName(a.name));
      L.push(`  const m = k.meta([${outs.join(', ')}], ${metaArgs.join(', ')});`);
      outs.forEach((o, i) => L.push(`  resizeStructuredOutput(${o}, m, ${i});`));
    } else {
      return ctx.fail(`structured kernels are generated for functional, in-place and out= overloads, not a ${kind} one`);
    }
    if (backend === 'cpu') L.push(`  k.impl([${outs.join(', ')}], ${implArgs.join(', ')});`);
    L.push(`  return ${outs.length === 1 ? outs[0]! : `[${outs.join(', ')}]`};`);
    L.push('}');
    L.push('');
  }
  return W;
}

/** How one operator is registered: its kernel expression per dispatch key, and the structured wrappers. */
interface Plan {
  readonly nf: NativeFunction;
  readonly kernels: ReadonlyMap<string, string>;
  readonly wrappers: Wrappers | null;
  /** The kernel module a structured function's wrappers call (`BinaryOps`), and its base (MetaBase or not). */
  readonly structuredModule: string | null;
  readonly metaBase: boolean;
}

/** The registration plan of every function, in file order, with the `at::cpu` entries. */
function plan(functions: readonly NativeFunction[]): { plans: Plan[]; cpuLines: string[] } {
  const byOpName = new Map(functions.map((nf) => [nf.opName, nf] as const));
  const cpuLines: string[] = [];
  // How many structured overloads share a name and kind (Note [atenCpu names of overloads]).
  const cpuNameUses = new Map<string, number>();
  const cpuNameOf = (nf: NativeFunction): string => `${nf.func.name}|${nf.func.kind()}`;
  for (const nf of functions) {
    if (nf.structured || nf.structuredDelegate !== null) cpuNameUses.set(cpuNameOf(nf), (cpuNameUses.get(cpuNameOf(nf)) ?? 0) + 1);
  }
  const plans = functions.map((nf): Plan => {
    const ctx = new TsTypes(nf);
    const structuredOut = nf.structured ? nf : nf.structuredDelegate !== null ? byOpName.get(nf.structuredDelegate) : undefined;
    if (structuredOut) {
      const cpu =
        structuredOut.dispatch.find((d) => d.key === 'CPU') ??
        ctx.fail(`structured out= entry '${structuredOut.opName}' lists no CPU kernel (expected e.g. 'CPU: BinaryOps.addStructured')`);
      const wrappers = structuredWrappers(
        ctx,
        nf,
        structuredOut,
        `${cpu.kernel.module}.${cpu.kernel.fn}`,
        cpuLines,
        (cpuNameUses.get(cpuNameOf(nf)) ?? 0) > 1,
      );
      return {
        nf,
        kernels: new Map([
          ['CPU', `cpu_${nf.handleName}`],
          ['Meta', `meta_${nf.handleName}`],
        ]),
        wrappers,
        structuredModule: cpu.kernel.module,
        metaBase: structuredOut.structuredInherits === null,
      };
    }
    return {
      nf,
      kernels: new Map(nf.dispatch.map((d) => [d.key, `${d.kernel.module}.${d.kernel.fn}`])),
      wrappers: null,
      structuredModule: null,
      metaBase: false,
    };
  });
  return { plans, cpuLines };
}

/** The type-only imports of a generated file, for the type names its text uses. */
const TYPE_IMPORTS: readonly (readonly [name: string, from: string])[] = [
  ['Device', '../c10/Device.js'],
  ['Layout', '../c10/Layout.js'],
  ['ScalarType', '../c10/ScalarType.js'],
  ['DispatchKeySet', '../c10/DispatchKeySet.js'],
  ['Kernel', '../dispatch/Library.js'],
  ['OperatorHandle', '../dispatch/OperatorHandle.js'],
  ['Generator', '../random/index.js'],
  ['ScalarValue', '../tensor/elements.js'],
  ['Tensor', '../tensor/Tensor.js'],
  ['AtenOps', './Operators.js'],
  ['Opt', './Operators.js'],
];

/** `import type` lines for the names of TYPE_IMPORTS that `text` uses. */
export function typeImports(text: string, skip: readonly string[] = []): string[] {
  const byFile = new Map<string, string[]>();
  for (const [name, from] of TYPE_IMPORTS) {
    if (skip.includes(name) || !new RegExp(`\\b${name}\\b`).test(text)) continue;
    byFile.set(from, [...(byFile.get(from) ?? []), name]);
  }
  return [...byFile].map(([from, names]) => `import type { ${names.join(', ')} } from '${from}';`);
}

/** The text of src/generated/Register<key>.ts: the kernels registered at `key`, structured wrappers included. */
export function emitRegisterDispatchKey(functions: readonly NativeFunction[], key: string): string {
  const { plans } = plan(functions);
  const backend = key === 'CPU' ? 'cpu' : key === 'Meta' ? 'meta' : null;
  const modules = new Set<string>();
  const wrapperLines: string[] = [];
  const tableLines: string[] = [];
  let iteratorUsed = false;
  let metaBaseUsed = false;
  for (const p of plans) {
    const kernel = p.kernels.get(key);
    if (kernel === undefined) continue;
    if (p.wrappers !== null && backend !== null) {
      wrapperLines.push(...p.wrappers[backend]);
      modules.add(p.structuredModule ?? '');
      if (p.metaBase) metaBaseUsed = true;
      else iteratorUsed = true;
    } else {
      modules.add(kernel.slice(0, kernel.indexOf('.')));
    }
    tableLines.push(`  ${p.nf.handleName}: ${kernel},`);
  }
  const body = [
    ...wrapperLines,
    `/** The ${key} kernels of the aten operators, in native_functions.yaml order (torchgen's Register${key}.cpp). */`,
    `export const ${key}: Readonly<Partial<Record<keyof AtenOps, Kernel>>> = {`,
    ...tableLines,
    '};',
    '',
  ].join('\n');
  const helpers = [
    ...(iteratorUsed && body.includes('checkInplace(') ? ['checkInplace'] : []),
    ...(metaBaseUsed
      ? ['allocateStructuredOutput', 'checkInplaceOutput', 'resizeStructuredOutput'].filter((h) => body.includes(`${h}(`))
      : []),
  ];
  return [
    GENERATED_HEADER,
    '//',
    `// The kernels of the aten operators at the ${key} dispatch key (torchgen's Register${key}.cpp)${backend !== null ? ', with the' : '.'}`,
    ...(backend !== null ? ['// generated wrappers of the structured kernels (Note [Structured kernels in aten-ts]).'] : []),
    '// src/aten/register.ts registers them; see src/codegen/README.md.',
    '',
    ...typeImports(body),
    ...(helpers.length > 0 ? [`import { ${helpers.join(', ')} } from '../kernels/TensorMeta.js';`] : []),
    ...[...modules].sort().map((m) => `import * as ${m} from '../kernels/${m}.js';`),
    '',
    body,
  ].join('\n');
}

/** The text of src/generated/CPUFunctions.ts: `atenCpu`, the structured kernels' direct CPU entry points. */
export function emitCPUFunctions(functions: readonly NativeFunction[]): string {
  const { cpuLines } = plan(functions);
  const body = [
    '/** The empty key set the direct entry points pass (the wrappers ignore it). */',
    'const NO_KEYS = DispatchKeySet.EMPTY;',
    '',
    "/** Direct CPU entry points that bypass the dispatcher, as `at::cpu::add(...)` (torchgen's CPUFunctions.h). */",
    'export const atenCpu = {',
    ...cpuLines.map((l) => l.replace(/ => cpu_/, ' => RegisterCPU.cpu_')),
    '};',
    '',
  ].join('\n');
  return [
    GENERATED_HEADER,
    '//',
    "// The direct CPU entry points of the structured kernels (torchgen's CPUFunctions.h, `at::cpu::`): they call",
    '// the CPU wrappers of src/generated/RegisterCPU.ts without dispatching.',
    '',
    "import { DispatchKeySet } from '../c10/DispatchKeySet.js';",
    ...typeImports(body, ['DispatchKeySet']),
    "import * as RegisterCPU from './RegisterCPU.js';",
    '',
    body,
  ].join('\n');
}
