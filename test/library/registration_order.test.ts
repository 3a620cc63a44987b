// Registration order never loses work: in a fresh process, the aten operators are registered
// before a user Library touches the registry, so an override registered before the first torch call wins
// and the override warning names the built-in kernel as the previous one. See Note [Static registration].
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('registration order', () => {
  it('an aten override registered before the first torch call wins; lookups work before any call', () => {
    const script = fileURLToPath(new URL('./fixtures/override-before-first-call.ts', import.meta.url));
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    const r = JSON.parse(out.trim().split('\n').pop()!) as {
      opCountBefore: number;
      addSchema: string;
      calls: number;
      result: number[];
      warnings: string[];
      mulDeferredBefore: boolean;
      mulCalls: number;
      mulResult: number[];
      mulDump: string;
    };
    expect(r.opCountBefore).toBeGreaterThan(300);
    expect(r.addSchema).toBe('aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor');
    expect(r.calls).toBe(1);
    expect(r.result).toEqual([1, 1]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('previous kernel: registered at aten-ts kernel add_Tensor (CPU)');
    expect(r.warnings[0]).toMatch(/new kernel: registered at .*override-before-first-call\.ts:\d+/);
    // an operator whose first touch is the user's registration (Note [Registration on first touch])
    expect(r.mulDeferredBefore).toBe(true);
    expect(r.mulCalls).toBe(1);
    expect(r.mulResult).toEqual([1, 1]);
    expect(r.mulDump).toMatch(/\nCPU: registered at .*override-before-first-call\.ts:\d+/);
    expect(r.mulDump).toContain('CPU (inactive): registered at aten-ts kernel mul_Tensor (CPU)');
  }, 60_000);
});
