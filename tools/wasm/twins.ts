// The pointwise twins' generator: from a kernel's `twin_expr` in src/wasm/kernels/kernels.yaml, the JS loop
// that is both the kernel's fallback and the tests' oracle (Note [The twin is the fallback] in
// src/wasm/kernels/vec.ts), and the per-element function the strided loops call. Run by `npm run build:wasm`
// with the tables (tools/wasm/kernels.ts), checked by `npm run check:wasm`. Counterpart: the scalar half of
// PyTorch's ufunc codegen (torchgen/dest/ufunc.py: one `ufunc_inner_loop` expression, the Vectorized and the
// scalar loops written from it).
//
// Note [Pointwise twins from one expression]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A pointwise kernel's twin is its element expression over the declaration's argument names
// (`twin_expr: 'a + alpha * b'`); the last `T*` argument is the output. generated/PointwiseTwins.ts gets:
//   <twin>(n, a, ai, b, bi, ..., y, yi)   the contiguous loop, unrolled by four (Note [Vectorised loops are
//                                         unrolled] in src/kernels/BinaryOpsKernel.ts), the operand reads
//                                         substituted for the names
//   <twin>_op(a, b, ...)                  the same expression on one element, what the strided loops
//                                         (iter/Loops.ts cpuKernel) call, so both loops share its text
// The expression is evaluated in double and the store rounds it once to the array's dtype. For one IEEE
// operation (+ - * /, a compare, a select) of float32 values that single rounding is the float32 operation
// (double has more than 2·24 + 2 bits), so the generic twin over every storage array gives the SIMD kernel's
// bits; an expression of several float32 steps rounds each in the text with `fround` (vsigmoid). Integer
// arrays wrap on the store, as C++ integer arithmetic; `twin_int32` replaces the expression where a double
// would lose bits before the wrap (int32 products: Math.imul). A twin named '{t}_name' is one per dtype over
// that dtype's typed array. Names in the expression that are not arguments, `Math` or `fround` are functions
// of src/wasm/kernels/reference.ts: a transcendental with its own polynomial (expf, the same float32 steps
// as assembly/exp.ts) stays a named, hand-written scalar function there, and only its loop is generated.
// Kernels over rows, geometry or workspaces (sums, softmax, layer norm, gemm, pooling, ...) are not one
// expression per element; their twins stay hand-written in reference*.ts.

import { prettier } from './format.js';

export const POINTWISE_TS = 'src/wasm/kernels/generated/PointwiseTwins.ts';

/** What the twins' generator needs of a declaration (tools/wasm/kernels.ts reads and checks the list). */
export interface PointwiseDeclaration {
  name: string;
  dtypes?: ('f32' | 'f64')[];
  args?: string;
  twin?: string;
  twin_expr?: string;
  twin_int32?: string;
}

interface TwinArg {
  name: string;
  ptr: boolean;
}

const GLOBALS = new Set(['Math', 'fround', 'NaN', 'Infinity']);

/** Replaces each argument name of `expr` (not after a '.') by `read(name)`. */
function substitute(expr: string, names: readonly string[], read: (name: string) => string): string {
  if (names.length === 0) return expr;
  return expr.replace(new RegExp(`(?<![.\\w])(${names.join('|')})\\b`, 'g'), (m) => read(m));
}

/** The helpers of reference.ts an expression calls: its free names that are neither arguments nor globals. */
function helpersOf(expr: string, args: readonly TwinArg[]): string[] {
  const names = new Set(args.map((a) => a.name));
  const out = new Set<string>();
  for (const m of expr.matchAll(/(?<![.\w])([A-Za-z_]\w*)\b/g)) {
    const id = m[1] as string;
    if (!names.has(id) && !GLOBALS.has(id)) out.add(id);
  }
  return [...out];
}

/** The twins of the declarations that give `twin_expr`, as one TypeScript module. */
export async function pointwiseTwins(
  list: readonly PointwiseDeclaration[],
  argsOf: (d: PointwiseDeclaration) => { name: string; kind: string }[],
  header: string,
  root: string,
): Promise<string> {
  const body: string[] = [];
  const helpers = new Set<string>();
  for (const d of list) {
    if (d.twin_expr === undefined) continue;
    const expr = d.twin_expr;
    const args: TwinArg[] = argsOf(d)
      .filter((a) => a.kind !== 'usize' || a.name !== 'n')
      .map((a) => ({ name: a.name, ptr: a.kind === 'ptr' }));
    const out = args.filter((a) => a.ptr).at(-1);
    if (out === undefined) throw new Error(`kernels.yaml: ${d.name}: a twin_expr needs an output (a T* argument)`);
    const inputs = args.filter((a) => a !== out);
    for (const h of helpersOf(expr, inputs)) helpers.add(h);
    const perDtype = (d.twin as string).includes('{t}');
    const variants = perDtype
      ? (d.dtypes ?? []).map((t) => [t, t === 'f32' ? 'Float32Array' : 'Float64Array'] as const)
      : [[null, 'Elements'] as const];
    for (const [t, arrayType] of variants) {
      const twin = (d.twin as string).replaceAll('{t}', t ?? '');
      const params = args.flatMap((a) => (a.ptr ? [`${a.name}: ${arrayType}`, `${a.name}i: number`] : [`${a.name}: number`]));
      const at = (k: string): string => (k === '0' ? 'i' : `i + ${k}`);
      const element = (k: string, e: string): string =>
        substitute(
          e,
          inputs.map((a) => a.name),
          (name) => (inputs.find((a) => a.name === name)?.ptr === true ? `(${name}[${name}i + ${at(k)}] as number)` : name),
        );
      const store = (k: string, e: string): string => `${out.name}[${out.name}i + ${at(k)}] = ${element(k, e)};`;
      const lines = [
        `/** ${out.name}[i] = ${expr}${d.twin_int32 === undefined ? '' : ` (int32: ${d.twin_int32})`}: the twin of ${(d.dtypes ?? []).map((dt) => `${dt}_${d.name}`).join(' / ')}. */`,
        `export function ${twin}(n: number, ${params.join(', ')}): void {`,
        '  let i = 0;',
      ];
      if (d.twin_int32 !== undefined && t === null) {
        lines.push(
          `  if (${out.name} instanceof Int32Array) {`,
          `    for (; i < n; i++) ${store('0', d.twin_int32)}`,
          '    return;',
          '  }',
        );
      }
      lines.push(
        '  for (; i + 4 <= n; i += 4) {',
        ...['0', '1', '2', '3'].map((k) => `    ${store(k, expr)}`),
        '  }',
        `  for (; i < n; i++) ${store('0', expr)}`,
        '}',
        '',
        `/** ${expr} on one element (the strided loops' function, Note [Pointwise twins from one expression]). */`,
        `export const ${twin}_op = (${inputs.map((a) => `${a.name}: number`).join(', ')}): number => ${expr};`,
        '',
      );
      body.push(...lines);
    }
  }
  const text = [
    header,
    "import type { StorageArray } from '../../../tensor/Storage.js';",
    ...(helpers.size > 0 ? [`import { ${[...helpers].sort().join(', ')} } from '../reference.js';`] : []),
    '',
    'const fround = Math.fround;',
    '',
    '/** The arrays a generic twin runs over: any storage array (integer stores wrap). */',
    'type Elements = StorageArray;',
    '',
    ...body,
  ].join('\n');
  return prettier(text, root);
}
