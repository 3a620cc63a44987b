// The package test's rules (tools/package/run.ts, run by `npm run test:package`): which examples it picks up
// and how it compares their output with the expected lines.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutput, findExamples } from '../../tools/package/run.js';

describe('tools/package/run.ts', () => {
  it("picks up examples/*.ts and examples/*/index.ts that import 'aten-ts', with their expected output", () => {
    const dir = mkdtempSync(join(tmpdir(), 'aten-ts-examples-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import { torch } from 'aten-ts';\nconsole.log(torch.ones(1).item());\n");
      writeFileSync(join(dir, 'a.expected.txt'), '1\n');
      writeFileSync(join(dir, 'deep.ts'), "import { torch } from '../src/index.js';\n");
      writeFileSync(join(dir, 'types.d.ts'), "import 'aten-ts';\n");
      mkdirSync(join(dir, 'backend'));
      writeFileSync(join(dir, 'backend', 'index.ts'), 'import { Library } from "aten-ts";\n');
      writeFileSync(join(dir, 'backend', 'helper.ts'), "import { torch } from 'aten-ts';\n");
      mkdirSync(join(dir, 'assets'));
      const { examples, skipped } = findExamples(dir);
      expect(examples.map((e) => [e.name, e.expected !== null])).toEqual([
        ['a', true],
        ['backend', false],
      ]);
      expect(skipped).toHaveLength(1);
      expect(skipped[0]).toMatch(/deep\.ts \(does not import 'aten-ts'\)$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds the repository examples, the PrivateUse1 backend among them', () => {
    const names = findExamples().examples.map((e) => e.name);
    expect(names).toContain('privateuse1-backend');
    expect(names).toContain('fit-a-line');
  });

  it('compares output line by line: literal lines, /regex/ lines, back-references', () => {
    expect(checkOutput('a\nb 1.5 1.5\n', 'a\n/b (\\d\\.\\d) \\1/\n')).toBeNull();
    expect(checkOutput('a\nb 1.5 1.6\n', 'a\n/b (\\d\\.\\d) \\1/\n')).toMatch(/^line 2: expected to match/);
    expect(checkOutput('a\n', 'b\n')).toBe('line 1: expected "b", got "a"');
    expect(checkOutput('a\nextra\n', 'a\n')).toMatch(/^expected 1 lines of output, got 2/);
    expect(checkOutput('xa', '/a/')).toMatch(/^line 1/); // anchored: the whole line must match
  });
});
