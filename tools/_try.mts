await import('../test/setup.js');
const { loadModuleDb, runSample, summarize } = await import('../test/nn/module_db_harness.js');
const fx = loadModuleDb();
const outs = [];
const only = process.argv[2];
for (const e of fx.entries) if (!only || e.name.match(only)) for (const s of e.samples) outs.push(...runSample(e, s));
let ok = 0;
for (const r of summarize(fx, outs)) { if (!r.failing) ok++; if (r.failing?.problem !== 'missing') console.log(r.module, r.samples, r.failing ? `${r.failing.key} ${r.failing.area}: ${r.failing.problem.slice(0, 300)}` : 'OK'); }
console.log('covered', ok);
