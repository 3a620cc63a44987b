import { loadFixture, runFixture } from './test/opinfo/harness.js';
const outs = runFixture(loadFixture(process.argv[2]!));
for (const o of outs) if (o.key.includes(process.argv[3] ?? '') && o.problem !== '') console.log(o.key, '|', o.problem);
