// PyTorch's own OpInfo samples (op_db of torch.testing._internal.common_methods_invocations, fixtures from
// tools/golden/gen_opinfo.py) replayed through the public API by ./harness.ts, in five areas: values, meta,
// grads, grad_fn, errors. Nothing is skipped: every outcome either agrees with PyTorch 2.13 or is listed in
// ./known_failures.json (written from a run by `npx tsx tools/opinfo-report.ts`), and a listed failure that
// starts passing fails this test, as PyTorch's xfail(strict=True) does, so the list stays honest. Outcomes
// that differ between kernel paths (wasm/js, threads) are listed separately and accepted either way.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STRESS_SUBSET, fixtureFiles, loadFixture, runFixture } from './harness.js';

interface Known {
  generated_by: string;
  /** file → outcome key → reason class of the failure */
  failures: Record<string, Record<string, string>>;
  /** file → outcome key → the configurations where it fails */
  path_dependent: Record<string, Record<string, string>>;
}

const known = JSON.parse(readFileSync(new URL('./known_failures.json', import.meta.url), 'utf8')) as Known;

describe('OpInfo samples (PyTorch 2.13 op_db)', () => {
  const files = fixtureFiles();

  it('known_failures.json names only fixture files', () => {
    expect(known.generated_by).toBe('tools/opinfo-report.ts');
    const stale = [...Object.keys(known.failures), ...Object.keys(known.path_dependent)].filter((f) => !files.includes(f));
    expect(stale).toEqual([]);
  });

  it.each(files)('%s', (file) => {
    const outcomes = runFixture(loadFixture(file));
    const failing = known.failures[file] ?? {};
    const either = known.path_dependent[file] ?? {};
    const keys = new Set(outcomes.map((o) => o.key));
    expect(keys.size).toBe(outcomes.length);
    const unexpectedFailures = outcomes
      .filter((o) => o.problem !== '' && !(o.key in failing) && !(o.key in either))
      .map((o) => `${o.key}: ${o.problem}`);
    const unexpectedPasses = outcomes
      .filter((o) => o.problem === '' && o.key in failing)
      .map((o) => `${o.key} passes now (listed: ${failing[o.key]})`);
    // (the stress path replays a subset of the samples: listed outcomes outside it are checked by the other runs)
    const stale = STRESS_SUBSET ? [] : [...Object.keys(failing), ...Object.keys(either)].filter((k) => !keys.has(k));
    expect(unexpectedFailures, 'failures not in test/opinfo/known_failures.json').toEqual([]);
    expect(unexpectedPasses, 'listed failures that pass: regenerate with `npx tsx tools/opinfo-report.ts`').toEqual([]);
    expect(stale, 'listed outcomes that no fixture has').toEqual([]);
    expect(outcomes.filter((o) => o.problem === '').length).toBeGreaterThan(0);
  });
});
