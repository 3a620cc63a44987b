// The kernel list's generator: from src/wasm/kernels/kernels.yaml, the one declaration of every WASM kernel,
// writes the AssemblyScript entry point and the TypeScript tables that used to be kept in step by hand. Run by
// `npm run build:wasm` (tools/wasm/build.ts) before compiling, checked byte for byte by `npm run check:wasm`.
// Counterparts: PyTorch's ufunc codegen (torchgen/dest/ufunc.py, one `ufunc_inner_loop` entry to the CPU
// loops) and XNNPACK's micro-kernel templates (one template, one line per instantiation).
//
// Note [One declaration per kernel]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A kernel is one entry of kernels.yaml: its name, its family's AssemblyScript file, its dtypes, its
// arguments (counts, byte addresses of elements of the dtype, scalars) and its JS twin. From the list:
//   assembly/index.ts           the module's exports: `export function f32_vadd(...) { vadd<f32>(...) }` for a
//                               generic body (one source for float32 and float64), a re-export otherwise
//   generated/KernelNames.ts    `Kernels` (one signature for the WASM exports and the JS twins), KernelName,
//                               KERNEL_NAMES (the export list the build checks and the thread pool indexes)
//   generated/KernelTwins.ts    the twins behind the same pointer signatures: views of linear memory and
//                               element indices in, float32 scalars rounded as the wasm boundary rounds them
//   generated/PointwiseTwins.ts the twins themselves of the pointwise kernels, from their one-expression
//                               `twin_expr` (tools/wasm/twins.ts, Note [Pointwise twins from one expression])
// Kernels with geometry blocks, workspaces or parameter blocks (gemm, im2col, pooling, attention, the fused
// optimiser) declare a TypeScript `signature` instead of `args`, and their twins are bound by hand
// (KernelTable.ts, customTwins: a type error when one is missing). The same JS twin is the fallback of
// src/kernels (ATen_TS_KERNELS=js, storage in the JS heap) and the tests' oracle, so both paths give the
// SIMD kernel's bits (Note [The twin is the fallback] in src/wasm/kernels/vec.ts).

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { prettier } from './format.js';
import { POINTWISE_TS, pointwiseTwins } from './twins.js';

export const KERNELS_YAML = 'src/wasm/kernels/kernels.yaml';
export const ASSEMBLY_INDEX = 'src/wasm/kernels/assembly/index.ts';
export const NAMES_TS = 'src/wasm/kernels/generated/KernelNames.ts';
export const TWINS_TS = 'src/wasm/kernels/generated/KernelTwins.ts';

type Dtype = 'f32' | 'f64';

interface Declaration {
  name: string;
  file: string;
  dtypes?: Dtype[];
  generic?: boolean;
  args?: string;
  returns?: 'T';
  twin?: string;
  /** The twin's element expression (Note [Pointwise twins from one expression] in tools/wasm/twins.ts). */
  twin_expr?: string;
  /** With twin_expr: the expression for int32 outputs where the double one would lose bits before the wrap. */
  twin_int32?: string;
  signature?: string;
  doc: string;
}

interface Arg {
  name: string;
  kind: 'usize' | 'ptr' | 'scalar' | 'f64' | 'i32';
}

/** One export of the module: a declaration at one dtype (or the declaration itself when it has none). */
interface Kernel {
  decl: Declaration;
  exportName: string;
  dtype: Dtype | null;
}

const DTYPE_NAME: Record<Dtype, string> = { f32: 'float32', f64: 'float64' };

function parseArgs(spec: string, where: string): Arg[] {
  return spec.split(',').map((part) => {
    const m = /^\s*(\w+)\s*:\s*(usize|T\*|T|f64|i32)\s*$/.exec(part);
    if (m === null) throw new Error(`${KERNELS_YAML}: ${where}: cannot read the argument '${part.trim()}'`);
    const t = m[2] as string;
    return { name: m[1] as string, kind: t === 'T*' ? 'ptr' : t === 'T' ? 'scalar' : (t as Arg['kind']) };
  });
}

/** The declarations, checked: a known shape, unique export names. */
export function readDeclarations(root: string): Declaration[] {
  const list = parse(readFileSync(resolve(root, KERNELS_YAML), 'utf8')) as Declaration[];
  for (const d of list) {
    const where = d.name;
    if (typeof d.name !== 'string' || typeof d.file !== 'string' || typeof d.doc !== 'string')
      throw new Error(`${KERNELS_YAML}: every entry needs name, file and doc (${JSON.stringify(d)})`);
    if ((d.args === undefined) === (d.signature === undefined))
      throw new Error(`${KERNELS_YAML}: ${where}: give args or signature, not both`);
    if (d.twin !== undefined && d.args === undefined) throw new Error(`${KERNELS_YAML}: ${where}: a twin needs args`);
    if (d.args !== undefined && d.twin === undefined) throw new Error(`${KERNELS_YAML}: ${where}: args without a twin`);
    if (d.args !== undefined && d.dtypes === undefined) throw new Error(`${KERNELS_YAML}: ${where}: args need dtypes`);
    if (d.args !== undefined) parseArgs(d.args, where);
    if (d.twin_int32 !== undefined && d.twin_expr === undefined)
      throw new Error(`${KERNELS_YAML}: ${where}: twin_int32 without a twin_expr`);
  }
  const seen = new Set<string>();
  for (const k of kernelsOf(list)) {
    if (seen.has(k.exportName)) throw new Error(`${KERNELS_YAML}: ${k.exportName} is declared twice`);
    seen.add(k.exportName);
  }
  return list;
}

function kernelsOf(list: readonly Declaration[]): Kernel[] {
  return list.flatMap((decl): Kernel[] =>
    decl.dtypes === undefined
      ? [{ decl, exportName: decl.name, dtype: null }]
      : decl.dtypes.map((dtype) => ({ decl, exportName: `${dtype}_${decl.name}`, dtype })),
  );
}

const isGeneric = (d: Declaration): boolean => d.dtypes !== undefined && d.generic !== false;

const HEADER = (what: string): string =>
  `// @generated by npm run build:wasm from ${KERNELS_YAML} (tools/wasm/kernels.ts). Do not edit.\n// ${what}`;

/** assembly/index.ts: the module's exports, generic bodies instantiated per dtype. */
export function assemblyIndex(list: readonly Declaration[]): string {
  const files = [...new Set(list.map((d) => d.file))];
  const lines = [
    HEADER("The kernel module's entry point (Note [One declaration per kernel]): every export is a kernel the JS side"),
    '// calls with element counts and byte addresses in the imported linear memory. One family per file.',
    '',
  ];
  for (const file of files) {
    const inFile = list.filter((d) => d.file === file);
    const generic = inFile.filter(isGeneric).map((d) => d.name);
    const plain = kernelsOf(inFile.filter((d) => !isGeneric(d))).map((k) => k.exportName);
    if (generic.length > 0) lines.push(`import { ${generic.join(', ')} } from './${file}';`);
    if (plain.length > 0) lines.push(`export { ${plain.join(', ')} } from './${file}';`);
  }
  for (const k of kernelsOf(list)) {
    if (!isGeneric(k.decl)) continue;
    const args = parseArgs(k.decl.args as string, k.exportName);
    const t = k.dtype as Dtype;
    const asType = (a: Arg): string => (a.kind === 'ptr' || a.kind === 'usize' ? 'usize' : a.kind === 'scalar' ? t : a.kind);
    const ret = k.decl.returns === 'T' ? t : 'void';
    const call = `${k.decl.name}<${t}>(${args.map((a) => a.name).join(', ')})`;
    lines.push(
      '',
      `/** ${k.decl.doc.replaceAll('{t}', DTYPE_NAME[t])} */`,
      `export function ${k.exportName}(${args.map((a) => `${a.name}: ${asType(a)}`).join(', ')}): ${ret} {`,
      ret === 'void' ? `  ${call};` : `  return ${call};`,
      '}',
    );
  }
  return lines.join('\n') + '\n';
}

/** The TypeScript member of `Kernels` for one kernel. */
function member(k: Kernel): string {
  const doc = `  /** ${k.decl.doc.replaceAll('{t}', k.dtype === null ? '' : DTYPE_NAME[k.dtype])} */`;
  if (k.decl.signature !== undefined) {
    const s = k.decl.signature;
    const fn = /^\((.*)\) => (\w+)$/.exec(s);
    return `${doc}\n  ${fn === null ? `${k.exportName}: ${s}` : `${k.exportName}(${fn[1] as string}): ${fn[2] as string}`};`;
  }
  const args = parseArgs(k.decl.args as string, k.exportName);
  return `${doc}\n  ${k.exportName}(${args.map((a) => `${a.name}: number`).join(', ')}): ${k.decl.returns === 'T' ? 'number' : 'void'};`;
}

/** generated/KernelNames.ts: the table's type and its names. */
export async function kernelNames(list: readonly Declaration[], root: string): Promise<string> {
  const kernels = kernelsOf(list);
  const types = new Set<string>();
  for (const k of kernels) for (const m of (k.decl.signature ?? '').matchAll(/\b([A-Z]\w+)\b/g)) types.add(m[1] as string);
  const custom = kernels.filter((k) => k.decl.twin === undefined).map((k) => `'${k.exportName}'`);
  const text = [
    HEADER("The kernel table's type and names (Note [One declaration per kernel])."),
    `import type { ${[...types].sort().join(', ')} } from '../KernelTypes.js';`,
    '',
    '/** Every kernel of src/wasm/kernels/assembly, by its export name (counts in elements, addresses in bytes). */',
    'export interface Kernels {',
    ...kernels.map(member),
    '}',
    '',
    'export type KernelName = keyof Kernels;',
    '',
    '/** The export names the kernel module must have (and has no others), in declaration order. */',
    `export const KERNEL_NAMES: readonly KernelName[] = [${kernels.map((k) => `'${k.exportName}'`).join(', ')}];`,
    '',
    '/** The kernels whose JS twins are bound by hand (KernelTable.ts, customTwins). */',
    `export type CustomTwinName = ${custom.join(' | ')};`,
  ].join('\n');
  return prettier(text, root);
}

/** generated/KernelTwins.ts: the JS twins behind the kernels' pointer signatures. */
export async function kernelTwins(list: readonly Declaration[], root: string): Promise<string> {
  const entries: string[] = [];
  for (const k of kernelsOf(list)) {
    if (k.decl.twin === undefined) continue;
    const t = k.dtype as Dtype;
    const shift = t === 'f32' ? 2 : 3;
    const args = parseArgs(k.decl.args as string, k.exportName);
    const twin = k.decl.twin.replaceAll('{t}', t);
    const actual = args.flatMap((a) =>
      a.kind === 'ptr' ? ['v', `${a.name} >>> ${shift}`] : a.kind === 'scalar' && t === 'f32' ? [`fround(${a.name})`] : [a.name],
    );
    const call = `${k.decl.twin_expr === undefined ? 'ref' : 'pw'}.${twin}(${actual.join(', ')})`;
    const params = `(${args.map((a) => a.name).join(', ')})`;
    entries.push(
      k.decl.returns === 'T'
        ? `    ${k.exportName}: ${params} => { const v = ${t}(); return ${call}; },`
        : `    ${k.exportName}: ${params} => { const v = ${t}(); ${call}; },`,
    );
  }
  const text = [
    HEADER("The JS twins behind the kernels' pointer signatures (Note [One declaration per kernel])."),
    "import type { WasmMemory } from '../../runtime/memory.js';",
    "import * as ref from '../reference.js';",
    "import type { CustomTwinName, Kernels } from './KernelNames.js';",
    "import * as pw from './PointwiseTwins.js';",
    '',
    'const fround = Math.fround;',
    '',
    "/** The declared twins over `memory`'s current views (addresses in bytes become element indices). */",
    'export function declaredTwins(memory: WasmMemory): Omit<Kernels, CustomTwinName> {',
    '  const f32 = (): Float32Array => memory.views().f32;',
    '  const f64 = (): Float64Array => memory.views().f64;',
    '  return {',
    ...entries,
    '  };',
    '}',
  ].join('\n');
  return prettier(text, root);
}

/** Every generated file, path → text. */
export async function generatedSources(root: string): Promise<[string, string][]> {
  const list = readDeclarations(root);
  return [
    [ASSEMBLY_INDEX, assemblyIndex(list)],
    [NAMES_TS, await kernelNames(list, root)],
    [TWINS_TS, await kernelTwins(list, root)],
    [
      POINTWISE_TS,
      await pointwiseTwins(
        list,
        (d) => parseArgs(d.args as string, d.name),
        HEADER("The pointwise kernels' JS twins, from their `twin_expr` (Note [Pointwise twins from one expression])."),
        root,
      ),
    ],
  ];
}

/** The module's export names, in declaration order. */
export function exportNames(list: readonly Declaration[]): string[] {
  return kernelsOf(list).map((k) => k.exportName);
}
