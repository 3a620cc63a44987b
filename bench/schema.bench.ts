// Benchmark: parse (and print) every schema of PyTorch's native_functions.yaml.
//
//   npx tsx bench/schema.bench.ts
//
// The YAML comes from the PyTorch wheel: $ATEN_TS_NATIVE_FUNCTIONS, else the reference venv's
// copy. Without it the benchmark says so and exits 0. Target: one pass well under 50 ms.
import { existsSync, readFileSync } from 'node:fs';
import { bench, run, summary } from 'mitata';
import { parse as parseYaml } from 'yaml';
import { AliasSymbolTable, parseSchema } from '../src/schema/index.js';

const DEFAULT_PATH = '.venv-golden/lib/python3.11/site-packages/torchgen/packaged/ATen/native/native_functions.yaml';
const path = process.env.ATEN_TS_NATIVE_FUNCTIONS ?? DEFAULT_PATH;

if (!existsSync(path)) {
  console.log(`schema.bench: native_functions.yaml not found at ${path}; set ATEN_TS_NATIVE_FUNCTIONS to run. Skipping.`);
  process.exit(0);
}

const entries = parseYaml(readFileSync(path, 'utf8')) as unknown[];
const funcs = entries
  .map((e) => (e && typeof e === 'object' && 'func' in e ? String((e as { func: unknown }).func) : undefined))
  .filter((f): f is string => f !== undefined);
const symbols = new AliasSymbolTable();
const parsed = funcs.map((f) => parseSchema(f, { aliasSymbols: symbols }));
console.log(`schema.bench: ${funcs.length} schemas from ${path}`);

// a plain timing first, so the figure is visible even without mitata's table
for (let i = 0; i < 20; i++) for (const f of funcs) parseSchema(f, { aliasSymbols: symbols });
const times: number[] = [];
for (let i = 0; i < 50; i++) {
  const t0 = performance.now();
  for (const f of funcs) parseSchema(f, { aliasSymbols: symbols });
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(`schema.bench: parse all ${funcs.length}: median ${times[25]!.toFixed(2)} ms, min ${times[0]!.toFixed(2)} ms (target < 50 ms)`);

summary(() => {
  bench(`parseSchema × ${funcs.length} (native_functions.yaml)`, () => {
    for (const f of funcs) parseSchema(f, { aliasSymbols: symbols });
  });
  bench(`toString × ${parsed.length}`, () => {
    let n = 0;
    for (const s of parsed) n += s.toString().length;
    return n;
  });
  bench(`parse + print × ${funcs.length}`, () => {
    let n = 0;
    for (const f of funcs) n += parseSchema(f, { aliasSymbols: symbols }).toString().length;
    return n;
  });
});

await run();
