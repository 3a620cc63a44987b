// ATEN_TS_SHOW_DISPATCH_TRACE=1 turns the dispatch trace on at start-up in Node.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('ATEN_TS_SHOW_DISPATCH_TRACE', () => {
  it('prints nested [call]/[redispatch] lines to stderr when set to 1, and nothing otherwise', () => {
    const script = "import { torch } from './src/index.ts'; torch.ones(2, 3).t();";
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: root,
        env: { ...process.env, ...env },
        encoding: 'utf8',
      });
    const on = run({ ATEN_TS_SHOW_DISPATCH_TRACE: '1' });
    expect(on.status).toBe(0);
    // t is a view: its Autograd kernel redispatches to its ADInplaceOrView kernel (which records the base),
    // and that one to the backend, as in PyTorch.
    expect(on.stderr).toContain(
      '[call] op=[aten::t], key=[AutogradCPU]\n [redispatch] op=[aten::t], key=[ADInplaceOrView]\n  [redispatch] op=[aten::t], key=[CPU]',
    );
    // ones has no BackendSelect kernel: BackendSelect's fallthrough is masked out, so it runs at Undefined
    // (its CompositeExplicitAutograd kernel), which calls empty, whose BackendSelect kernel picks the CPU.
    expect(on.stderr).toContain(
      '[call] op=[aten::ones], key=[Undefined]\n [call] op=[aten::empty.memory_format], key=[BackendSelect]\n  [redispatch] op=[aten::empty.memory_format], key=[CPU]',
    );
    const off = run({ ATEN_TS_SHOW_DISPATCH_TRACE: '0' });
    expect(off.stderr).not.toContain('[call]');
  }, 30_000);
});
