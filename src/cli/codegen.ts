// The code generator's Node driver: reads src/aten/native_functions.yaml, builds the model
// (src/codegen/model.ts), emits src/generated/aten.ts (src/codegen/emit.ts) and the front end
// src/generated/functions.ts and methods.ts (src/codegen/front.ts), and from src/autograd/derivatives.yaml
// src/generated/autograd.ts (src/codegen/autograd.ts), and the dispatcher's per-arity closures
// src/generated/DispatchArity.ts (src/codegen/dest/DispatchArity.ts), and writes them. Mirrors the
// file-system half of torchgen/gen.py (main(), FileManager.write_with_template and its `--dry-run` check).
//
//   tsx src/cli/codegen.ts           regenerate src/generated/*.ts
//   tsx src/cli/codegen.ts --check   exit 1 if a committed file differs from what would be generated

import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emitAten } from '../codegen/emit.js';
import { emitAutograd } from '../codegen/autograd.js';
import { emitDispatchArity } from '../codegen/dest/DispatchArity.js';
import { parseDerivatives } from '../codegen/derivatives.js';
import { emitFunctions, emitMethods } from '../codegen/front.js';
import { parseNativeFunctions } from '../codegen/model.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const YAML_PATH = 'src/aten/native_functions.yaml';
export const OUTPUT_PATH = 'src/generated/aten.ts';
export const FUNCTIONS_PATH = 'src/generated/functions.ts';
export const METHODS_PATH = 'src/generated/methods.ts';
export const DERIVATIVES_PATH = 'src/autograd/derivatives.yaml';
export const AUTOGRAD_PATH = 'src/generated/autograd.ts';
export const DISPATCH_ARITY_PATH = 'src/generated/DispatchArity.ts';

/** The generated text of src/generated/aten.ts for the YAML at `root`. Throws NativeFunctionsError on an invalid file. */
export function generate(root = ROOT): string {
  return generateAll(root)[OUTPUT_PATH] ?? '';
}

/** Every generated file's text, by path, for the YAML at `root`. */
export function generateAll(root = ROOT): Record<string, string> {
  const text = readFileSync(resolve(root, YAML_PATH), 'utf8');
  const fns = parseNativeFunctions(text, YAML_PATH);
  const derivatives = parseDerivatives(readFileSync(resolve(root, DERIVATIVES_PATH), 'utf8'), fns, DERIVATIVES_PATH);
  return {
    [OUTPUT_PATH]: emitAten(fns),
    [FUNCTIONS_PATH]: emitFunctions(fns),
    [METHODS_PATH]: emitMethods(fns),
    [AUTOGRAD_PATH]: emitAutograd(fns, derivatives),
    [DISPATCH_ARITY_PATH]: emitDispatchArity(),
  };
}

/** The command: returns the exit code (0 ok, 1 invalid YAML or stale output, 2 bad usage). */
export function main(argv: readonly string[], root = ROOT): number {
  const check = argv.includes('--check');
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    console.error(`codegen: unknown argument '${unknown[0] ?? ''}' (expected no argument or --check)`);
    return 2;
  }
  let files: Record<string, string>;
  try {
    files = generateAll(root);
  } catch (e) {
    console.error(`codegen: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  let status = 0;
  for (const [path, text] of Object.entries(files)) {
    const out = resolve(root, path);
    const current = existsSync(out) ? readFileSync(out, 'utf8') : null;
    if (check) {
      if (current !== text) {
        console.error(`codegen: ${path} is stale (it differs from what ${YAML_PATH} generates); run npm run codegen`);
        status = 1;
      } else {
        console.log(`codegen: ${path} is up to date`);
      }
      continue;
    }
    if (current === text) {
      console.log(`codegen: ${path} unchanged`);
      continue;
    }
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text);
    console.log(`codegen: wrote ${path}`);
  }
  return status;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
