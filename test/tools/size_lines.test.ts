// tools/size/lines.ts (npm run check:size, its first part): no hand-written .ts or .py file under tools/ or test/
// over 600 lines. Lines are counted as ESLint's max-lines counts them for src/, generated files and fixtures are
// exempt, and a small git repository with one file over the limit and one under it is checked as the repository
// itself is.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINES, countLines, isChecked, oversized } from '../../tools/size/lines.js';

describe('tools/size/lines.ts', () => {
  it('counts lines as ESLint max-lines does (a final newline opens no line)', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\n\n')).toBe(2);
    expect(countLines('a\r\nb\rc\n')).toBe(3);
  });

  it('holds hand-written .ts and .py files under tools/ and test/ to the rule, not generated files or fixtures', () => {
    expect(isChecked('tools/golden/gen_c10.py')).toBe(true);
    expect(isChecked('tools/golden/c10/sets.py')).toBe(true);
    expect(isChecked('test/opinfo/harness.ts')).toBe(true);
    expect(isChecked('test/golden/opinfo/index.json')).toBe(false);
    expect(isChecked('test/golden/helper.py')).toBe(false);
    expect(isChecked('test/generated/table.ts')).toBe(false);
    expect(isChecked('tools/golden/README.md')).toBe(false);
    // src/ and inspector/ are ESLint's max-lines (eslint.config.js)
    expect(isChecked('src/api/torch.ts')).toBe(false);
  });

  describe('a repository with one file over the limit', () => {
    let root: string;
    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'size-lines-'));
      const files: Record<string, string> = {
        'tools/big.py': 'x = 1\n'.repeat(MAX_LINES + 1),
        'tools/ok.py': 'x = 1\n'.repeat(MAX_LINES),
        'test/untracked.test.ts': '// new\n'.repeat(MAX_LINES + 5),
        'test/golden/fixture.ts': '0\n'.repeat(MAX_LINES * 2),
        'src/big.ts': '0\n'.repeat(MAX_LINES * 2),
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      execFileSync('git', ['init', '-q'], { cwd: root });
      execFileSync('git', ['add', 'tools', 'test/golden', 'src'], { cwd: root });
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('lists the tracked and the untracked file over the limit, longest first', () => {
      expect(oversized(root)).toEqual([
        { path: 'test/untracked.test.ts', lines: MAX_LINES + 5 },
        { path: 'tools/big.py', lines: MAX_LINES + 1 },
      ]);
    });
  });

  it('finds no file over the limit in this repository', () => {
    expect(oversized()).toEqual([]);
  });
});
