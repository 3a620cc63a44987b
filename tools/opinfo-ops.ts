// Lists aten-ts's public operator names — the `torch.*` functions and the Tensor methods — for
// tools/golden/gen_opinfo.py, which generates OpInfo fixtures for the OpInfo entries aten-ts has.
// Run: `npx tsx tools/opinfo-ops.ts` → tools/golden/opinfo_ops.json (then regenerate the fixtures).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { torch, Tensor } from '../src/api/index.js';
import * as fullTorch from '../src/torch.js';

const functions = Object.keys(torch)
  .filter((k) => typeof (torch as Record<string, unknown>)[k] === 'function')
  .sort();
const methods = Object.getOwnPropertyNames(Tensor.prototype)
  .filter((k) => k !== 'constructor')
  .sort();
// Every function of the package's full `torch` namespace (src/torch.ts: torch.X and torch.nn.functional.X), for
// `gen_opinfo.py --coverage`, which lists the op_db entries aten-ts exposes but the sweep skips.
const isFn = (v: unknown): boolean => typeof v === 'function';
const F = (fullTorch.nn as unknown as { functional: Record<string, unknown> }).functional;
// The nested namespaces op_db names its entries by (`linalg.svd`, `special.i0e`, `fft.rfft`, `masked.sum`,
// `signal.windows.hann`), each function listed under its dotted name.
const NAMESPACES = ['linalg', 'special', 'fft', 'masked', 'signal.windows'];
const namespaced = NAMESPACES.flatMap((ns) => {
  let o: unknown = fullTorch;
  for (const part of ns.split('.')) o = (o as Record<string, unknown> | undefined)?.[part];
  const m = (o ?? {}) as Record<string, unknown>;
  return Object.keys(m)
    .filter((k) => isFn(m[k]))
    .map((k) => `${ns}.${k}`);
});
const exposed = [
  ...Object.keys(fullTorch).filter((k) => isFn((fullTorch as Record<string, unknown>)[k])),
  ...Object.keys(F)
    .filter((k) => isFn(F[k]))
    .map((k) => `nn.functional.${k}`),
  ...namespaced,
].sort();
const out = new URL('./golden/opinfo_ops.json', import.meta.url);
const text = JSON.stringify({ generated_by: 'tools/opinfo-ops.ts', functions, methods, exposed });
// in prettier's layout, so that `npm run format:check` passes on the written file
writeFileSync(out, await format(text, { ...(await resolveConfig(fileURLToPath(out))), parser: 'json' }));
console.log(`${functions.length} functions, ${methods.length} methods, ${exposed.length} exposed → tools/golden/opinfo_ops.json`);
