// `npm run build:wasm`: generates the kernel tables and the AssemblyScript entry point from
// src/wasm/kernels/kernels.yaml (tools/wasm/kernels.ts), then compiles the AssemblyScript kernels (src/wasm/kernels/assembly/index.ts) with the pinned
// assemblyscript compiler, plain and relaxed SIMD (Note [Relaxed gemm] in src/wasm/kernels/assembly/gemm.ts), and
// writes the committed outputs:
//   src/wasm/kernels/kernels.wasm                  the module (for inspection, tools, and anyone who wants the file)
//   src/wasm/kernels/kernels-relaxed.wasm          the relaxed-SIMD build of the same source
//   src/wasm/kernels/generated/kernelsWasm.ts      the same bytes as base64, what src/wasm/index.ts loads, so the
//                                          package needs no bundler plugin, fetch, or Node API to find it
// `npm run check:wasm` (this script with --check) compiles in memory and exits 1 if either committed file
// differs by a byte: the build is deterministic (pinned asc and binaryen, no names section, no paths).
// Mirrors the shape of src/cli/codegen.ts (torchgen's --dry-run check).

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';
import { SectionId, memoryImport, sections } from '../../src/wasm/runtime/binaryFormat.js';
import { webAssembly } from '../../src/wasm/runtime/webassembly.js';
import { exportNames, generatedSources, readDeclarations } from './kernels.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENTRY = 'src/wasm/kernels/assembly/index.ts';
const WASM_PATH = 'src/wasm/kernels/kernels.wasm';
const RELAXED_WASM_PATH = 'src/wasm/kernels/kernels-relaxed.wasm';
const TS_PATH = 'src/wasm/kernels/generated/kernelsWasm.ts';

// Note [asc flags]
// ~~~~~~~~~~~~~~~~
// -O3 --noAssert       release build tuned for speed (optimizeLevel 3, shrinkLevel 0); assertions compiled out
// --runtime stub       no TLSF heap and no GC: kernels never allocate, the JS CachingAllocator owns memory
// --enable simd        fixed-width SIMD (v128, f32x4, f64x2). The relaxed build (RELAXED_ASC_FLAGS) enables
//                      simd,relaxed-simd instead, which sets ASC_FEATURE_RELAXED_SIMD for the kernels that
//                      branch on it (Note [Relaxed gemm]); everything else is the same flags and source.
// --importMemory       JS creates the WebAssembly.Memory (src/wasm/runtime/memory.ts) and passes it in as env.memory,
// --noExportMemory     so there is nothing to export back
// --maximumMemory 65536  the import declares a maximum (4 GiB, the wasm32 limit), which a shared memory
//                      import requires: the shared variant is then this binary with one flag byte changed
//                      (Note [One binary, shared or not] in src/wasm/runtime/binaryFormat.ts); JS memories cap lower.
// The check below rejects anything that would share linear memory with the JS allocator (a data segment,
// globals, a start function) or an import besides env.memory.
export const ASC_FLAGS = [
  '-O3',
  '--noAssert',
  '--runtime',
  'stub',
  '--enable',
  'simd',
  '--importMemory',
  '--noExportMemory',
  '--maximumMemory',
  '65536',
] as const;

/** The relaxed-SIMD build's flags: ASC_FLAGS with `--enable simd,relaxed-simd`. */
export const RELAXED_ASC_FLAGS = ASC_FLAGS.map((f) => (f === 'simd' ? 'simd,relaxed-simd' : f));

/** Compiles the kernels in memory (`relaxed`: the relaxed-SIMD build); returns the module's bytes. */
export async function compile(relaxed = false): Promise<Uint8Array> {
  let wasm: Uint8Array | null = null;
  let log = '';
  const sink = {
    write(chunk: string | Uint8Array): void {
      log += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
    },
  };
  const result = await asc.main(
    [ENTRY, '--outFile', 'kernels.wasm', '--baseDir', ROOT, '--noColors', ...(relaxed ? RELAXED_ASC_FLAGS : ASC_FLAGS)],
    {
      stdout: sink,
      stderr: sink,
      writeFile(name: string, contents: Uint8Array | string) {
        if (name.endsWith('kernels.wasm') && typeof contents !== 'string') wasm = contents;
      },
    },
  );
  if (result.error !== null) throw new Error(`asc failed: ${result.error.message}\n${log}`);
  if (wasm === null) throw new Error(`asc wrote no kernels.wasm\n${log}`);
  if (log.trim() !== '') console.error(log.trim());
  return wasm;
}

/** Both builds, checked: the plain one compiled here, the relaxed one against it (sameShape). */
export async function compileBoth(): Promise<{ plain: Uint8Array; relaxed: Uint8Array }> {
  const plain = await compile(false);
  validate(plain);
  const relaxed = await compile(true);
  sameShape(plain, relaxed);
  return { plain, relaxed };
}

/**
 * The relaxed build may differ from the plain one only in function bodies: the same types, import, exports
 * and no other section, so the loader can use either. Checked on the bytes, since Node 20 compiles relaxed
 * SIMD only behind a flag.
 */
function sameShape(plain: Uint8Array, relaxed: Uint8Array): void {
  const parts = (bytes: Uint8Array): string[] =>
    sections(bytes)
      .filter((s) => s.id !== SectionId.code)
      .map((s) => `${s.id}:${Buffer.from(bytes.subarray(s.start, s.start + s.size)).toString('hex')}`);
  if (parts(plain).join() !== parts(relaxed).join())
    throw new Error('kernels-relaxed.wasm: differs from kernels.wasm outside the code section (Note [Relaxed gemm])');
  if (Buffer.from(plain).equals(Buffer.from(relaxed)))
    throw new Error('kernels-relaxed.wasm: no relaxed instruction (same bytes as kernels.wasm)');
}

/** The module's shape the loader and the allocator rely on. */
function validate(bytes: Uint8Array): void {
  const wa = webAssembly();
  const mod = new wa.Module(new Uint8Array(bytes));
  const imports = wa.Module.imports(mod).map((i) => `${i.module}.${i.name}:${i.kind}`);
  if (imports.join() !== 'env.memory:memory')
    throw new Error(`kernels.wasm: expected only the import env.memory, got ${imports.join(', ')}`);
  const mem = memoryImport(bytes);
  if (mem === null || mem.shared || mem.maximumPages !== 65536)
    throw new Error('kernels.wasm: env.memory must be non-shared with maximum 65536');
  const exports = wa.Module.exports(mod)
    .map((e) => e.name)
    .sort();
  const expected = exportNames(readDeclarations(ROOT)).sort();
  if (exports.join() !== expected.join()) {
    throw new Error(
      `kernels.wasm: exports [${exports.join(', ')}] differ from the declarations in src/wasm/kernels/kernels.yaml [${expected.join(', ')}]`,
    );
  }
  const ids = new Set(sections(bytes).map((s) => s.id));
  for (const [name, id] of [
    ['data', SectionId.data],
    ['global', SectionId.global],
    ['start', SectionId.start],
  ] as const) {
    if (ids.has(id)) throw new Error(`kernels.wasm: has a ${name} section; kernels must keep no state in linear memory or globals`);
  }
}

/** The generated TypeScript module for `bytes`. */
export function generatedModule(bytes: Uint8Array, relaxedBytes: Uint8Array): string {
  const version = (JSON.parse(readFileSync(resolve(ROOT, 'node_modules/assemblyscript/package.json'), 'utf8')) as { version: string })
    .version;
  const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
  const base64Lines = (b: Uint8Array): string => {
    const b64 = Buffer.from(b).toString('base64');
    const lines: string[] = [];
    for (let i = 0; i < b64.length; i += 100) lines.push(`  '${b64.slice(i, i + 100)}'`);
    return lines.join(' +\n') + ';';
  };
  return [
    '// @generated by npm run build:wasm. Do not edit.',
    `// ${WASM_PATH} as base64: ${bytes.length} bytes, sha256 ${sha(bytes)}.`,
    `// ${RELAXED_WASM_PATH} as base64: ${relaxedBytes.length} bytes, sha256 ${sha(relaxedBytes)}.`,
    `// Compiled from src/wasm/kernels/assembly/ by assemblyscript ${version} (tools/wasm/build.ts, Note [asc flags]):`,
    `//   asc ${ENTRY} ${ASC_FLAGS.join(' ')}`,
    `//   asc ${ENTRY} ${RELAXED_ASC_FLAGS.join(' ')}`,
    '',
    '/** The kernel module, base64. Decode with decodeBase64 (src/wasm/runtime/binaryFormat.ts). */',
    'export const KERNELS_WASM_BASE64 =',
    base64Lines(bytes),
    '',
    '/** The relaxed-SIMD build of the kernel module, base64 (Note [Relaxed gemm] in src/wasm/kernels/assembly/gemm.ts). */',
    'export const KERNELS_RELAXED_WASM_BASE64 =',
    base64Lines(relaxedBytes),
    '',
  ].join('\n');
}

/** The command: 0 ok, 1 stale output or a failed build, 2 bad usage. */
export async function main(argv: readonly string[]): Promise<number> {
  const check = argv.includes('--check');
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    console.error(`build:wasm: unknown argument '${unknown[0] ?? ''}' (expected no argument or --check)`);
    return 2;
  }
  // The generated sources first (Note [One declaration per kernel]): the compile reads assembly/index.ts.
  let sources: [string, string][];
  try {
    sources = await generatedSources(ROOT);
  } catch (e) {
    console.error(`build:wasm: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  let status = 0;
  for (const [path, text] of sources) status = Math.max(status, output(path, new TextEncoder().encode(text), check));
  let bytes: Uint8Array;
  let relaxedBytes: Uint8Array;
  try {
    ({ plain: bytes, relaxed: relaxedBytes } = await compileBoth());
  } catch (e) {
    console.error(`build:wasm: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  const outputs: [string, Uint8Array][] = [
    [WASM_PATH, bytes],
    [RELAXED_WASM_PATH, relaxedBytes],
    [TS_PATH, new TextEncoder().encode(generatedModule(bytes, relaxedBytes))],
  ];
  for (const [path, want] of outputs) status = Math.max(status, output(path, want, check));
  return status;
}

/** Writes (or, with `check`, compares) one output; 1 when stale under --check. */
function output(path: string, want: Uint8Array, check: boolean): number {
  const file = resolve(ROOT, path);
  const have = existsSync(file) ? new Uint8Array(readFileSync(file)) : null;
  const same = have !== null && have.length === want.length && have.every((b, i) => b === want[i]);
  if (check) {
    if (same) console.log(`build:wasm: ${path} is up to date`);
    else {
      console.error(
        `build:wasm: ${path} differs from what ${path.endsWith('.ts') && !path.includes('kernelsWasm') ? 'kernels.yaml generates' : 'src/wasm/kernels/assembly builds'}; run npm run build:wasm`,
      );
      return 1;
    }
  } else if (same) {
    console.log(`build:wasm: ${path} unchanged`);
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, want);
    console.log(`build:wasm: wrote ${path} (${want.length} bytes)`);
  }
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
