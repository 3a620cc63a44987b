// Nothing below the api floor calls the users' parsing Tensor methods (src/generated/methods.ts): kernels,
// derivative formulas and the autograd call the typed layer, src/generated/TensorBody.ts (See Note [The typed
// Tensor layer] in src/codegen/dest/TensorBody.ts). Run: npx tsx tools/check-typed-calls.ts
// (npm run check:typed; part of npm test). Exits 1 and lists each call on a problem.

import { fileURLToPath } from 'node:url';
import { coreProgram, findParsingCalls, floorsBelowApi } from './typed/scan.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const calls = findParsingCalls(coreProgram(ROOT), ROOT, floorsBelowApi(ROOT));
if (process.argv.includes('--summary')) {
  const by = new Map<string, number>();
  for (const c of calls) by.set(c.method, (by.get(c.method) ?? 0) + 1);
  console.log(
    [...by]
      .sort((a, b) => b[1] - a[1])
      .map(([m, n]) => `${m} ${n}`)
      .join('\n'),
  );
}
for (const c of calls) console.error(`${c.file}:${c.line}:${c.column}: parsing method '${c.method}' below the api floor: ${c.text}`);
if (calls.length > 0) {
  console.error(
    `\n${calls.length} call(s) of parsing Tensor methods below the api floor: call src/generated/TensorBody.ts (at.<op>_<overload>) instead.`,
  );
  process.exit(1);
}
console.log('check:typed: no parsing Tensor method is called below the api floor');
