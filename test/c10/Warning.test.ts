// Once-warnings (TORCH_WARN_ONCE) and torch.set_warn_always (Note [Warnings once per process] in
// src/c10/Warning.ts): a site warns the first time it is reached, and on every call while "warn always" is on.
import { afterEach, describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { setWarningHandler, warnOnce } from '../../src/c10/Warning.js';

function collect(fn: () => void): string[] {
  const messages: string[] = [];
  const previous = setWarningHandler((m) => messages.push(m));
  try {
    fn();
  } finally {
    setWarningHandler(previous);
  }
  return messages;
}

describe('warnOnce and torch.set_warn_always', () => {
  afterEach(() => torch.set_warn_always(false));

  it('a site warns once per process, another site warns on its own', () => {
    const got = collect(() => {
      warnOnce('test_site_a', 'a');
      warnOnce('test_site_a', 'a');
      warnOnce('test_site_b', 'b');
    });
    expect(got).toEqual(['a', 'b']);
    expect(collect(() => warnOnce('test_site_a', 'a'))).toEqual([]);
  });

  it('warns on every call while set_warn_always(true), and is_warn_always_enabled reports it', () => {
    collect(() => warnOnce('test_site_c', 'c'));
    expect(torch.is_warn_always_enabled()).toBe(false);
    torch.set_warn_always(true);
    expect(torch.is_warn_always_enabled()).toBe(true);
    expect(collect(() => (warnOnce('test_site_c', 'c'), warnOnce('test_site_c', 'c')))).toEqual(['c', 'c']);
  });

  it("torch.cross without dim is a once-warning that set_warn_always repeats (PyTorch's text)", () => {
    const a = torch.ones(2, 3);
    torch.set_warn_always(true);
    const got = collect(() => {
      torch.cross(a, a);
      torch.cross(a, a);
    });
    expect(got).toHaveLength(2);
    expect(got[0]).toMatch(/^Using torch.cross without specifying the dim arg is deprecated/);
  });

  it('rejects a non-boolean, naming the argument', () => {
    expect(() => torch.set_warn_always(1 as unknown as boolean)).toThrow("set_warn_always(): argument 'b' must be bool, not number");
    expect(torch.is_warn_always_enabled()).toBe(false);
  });
});
