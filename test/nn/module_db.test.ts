// PyTorch's ModuleInfo database replayed (test/nn/module_db_harness.ts over test/golden/module_db.json.gz, from
// tools/golden/gen_module_db.py): every sample of every module_db entry must agree with PyTorch 2.13 in every
// area (construction, repr, state_dict keys, default initialisation bit for bit, forward, buffers after it,
// gradients), except the outcomes test/nn/module_db_known_failures.json lists (written with their reason by
// tools/module-db-report.ts, never by hand), which must still fail: a fix is recorded by rerunning the tool.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModuleDb, runSample } from './module_db_harness.js';

const FX = loadModuleDb();
const KNOWN = JSON.parse(readFileSync(new URL('./module_db_known_failures.json', import.meta.url), 'utf8')) as {
  generated_by: string;
  failures: Record<string, string>;
};

describe('module_db (ModuleInfo samples) against PyTorch 2.13', () => {
  it('has provenance and every module_db entry', () => {
    expect(KNOWN.generated_by).toBe('tools/module-db-report.ts');
    expect(FX.entries.length).toBe(FX.total);
    expect(FX.total).toBe(114);
  });
  for (const entry of FX.entries) {
    if (entry.samples.length === 0) continue;
    it(entry.name, () => {
      const problems: string[] = [];
      for (const s of entry.samples) {
        for (const o of runSample(entry, s)) {
          const known = KNOWN.failures[entry.name] ?? KNOWN.failures[`${o.key}|${o.area}`];
          if (known === undefined && o.problem !== '') problems.push(`${o.key} ${o.area}: ${o.problem}`);
          if (known === 'missing in aten-ts') {
            if (o.problem !== 'missing') problems.push(`${entry.name} exists now: rerun tools/module-db-report.ts`);
            continue;
          }
          if (known?.startsWith('path-dependent') === true) continue;
          if (known !== undefined && o.problem === '') problems.push(`${o.key} ${o.area} passes now: rerun tools/module-db-report.ts`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
