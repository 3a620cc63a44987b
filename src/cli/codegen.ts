// The code generator's Node driver: reads src/aten/native_functions.yaml, builds the model
// (src/codegen/model.ts), emits src/generated/aten.ts (src/codegen/emit.ts) and writes it. Mirrors the
// file-system half of torchgen/gen.py (main(), FileManager.write_with_template and its `--dry-run` check).
//
//   tsx src/cli/codegen.ts           regenerate src/generated/aten.ts
//   tsx src/cli/codegen.ts --check   exit 1 if the committed file differs from what would be generated

import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emitAten } from '../codegen/emit.js';
import { parseNativeFunctions } from '../codegen/model.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const YAML_PATH = 'src/aten/native_functions.yaml';
export const OUTPUT_PATH = 'src/generated/aten.ts';

/** The generated text for the YAML at `root`. Throws NativeFunctionsError on an invalid file. */
export function generate(root = ROOT): string {
  const text = readFileSync(resolve(root, YAML_PATH), 'utf8');
  return emitAten(parseNativeFunctions(text, YAML_PATH));
}

/** The command: returns the exit code (0 ok, 1 invalid YAML or stale output, 2 bad usage). */
export function main(argv: readonly string[], root = ROOT): number {
  const check = argv.includes('--check');
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    console.error(`codegen: unknown argument '${unknown[0] ?? ''}' (expected no argument or --check)`);
    return 2;
  }
  let text: string;
  try {
    text = generate(root);
  } catch (e) {
    console.error(`codegen: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  const out = resolve(root, OUTPUT_PATH);
  const current = existsSync(out) ? readFileSync(out, 'utf8') : null;
  if (check) {
    if (current !== text) {
      console.error(`codegen: ${OUTPUT_PATH} is stale (it differs from what ${YAML_PATH} generates); run npm run codegen`);
      return 1;
    }
    console.log(`codegen: ${OUTPUT_PATH} is up to date`);
    return 0;
  }
  if (current === text) {
    console.log(`codegen: ${OUTPUT_PATH} unchanged`);
    return 0;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  console.log(`codegen: wrote ${OUTPUT_PATH}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
