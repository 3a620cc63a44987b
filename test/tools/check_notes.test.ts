// tools/check-notes.ts (npm run check:notes): every referenced Note is defined once, and a reference that says
// where its Note is (`See Note [Title] in path`) names a file or folder that defines it. A small project with
// one definition and references right and wrong, and the repository itself.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkNotes, resolveLocation } from '../../tools/check-notes.js';

/** Spelled apart so that the checker, run over this file, sees no Note here. */
const N = 'No' + 'te';

const DEF = (title: string): string => `// ${N} [${title}]\n// ~~~~~~~~~~~~~~\n// What it says.\n`;

const FILES: Record<string, string> = {
  'src/iter/Loops.ts': DEF('Row loops'),
  'src/iter/Reduce.ts': `// See ${N} [Row loops] in src/iter/Loops.ts.\n// (${N} [Row loops] in Loops.ts)\n`,
  'src/kernels/Sum.ts': [
    `// See ${N} [Row loops] in src/iter.`, // a folder that holds it
    `// See ${N} [Row loops] in \`src/iter/Loops.ts\``, // backticks
    `// See ${N} [Row loops] in the iterator.`, // not a location
    '',
  ].join('\n'),
  'src/kernels/Wrong.ts': `// See ${N} [Row loops] in src/iter/Reduce.ts\n`,
  'src/kernels/Missing.ts': `// See ${N} [Row loops] in src/wasm/Loops.ts\n`,
  'src/kernels/Sibling.ts': `// See ${N} [Row loops] in Loops.ts\n`,
  'bench/RESULTS.md': `Before the move: ${N} [Row loops] in src/kernels/Old.ts\n`,
};

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'aten-ts-notes-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('check-notes: Note locations', () => {
  it('resolves a location from the root, then from the referencing folder and its parents', () => {
    expect(resolveLocation(root, 'src/iter/Reduce.ts', 'src/iter/Loops.ts')).toBe('src/iter/Loops.ts');
    expect(resolveLocation(root, 'src/iter/Reduce.ts', 'Loops.ts')).toBe('src/iter/Loops.ts');
    expect(resolveLocation(root, 'src/kernels/Sum.ts', 'iter/Loops.ts')).toBe('src/iter/Loops.ts');
    expect(resolveLocation(root, 'src/kernels/Sum.ts', 'src/iter/')).toBe('src/iter');
    expect(resolveLocation(root, 'src/kernels/Sibling.ts', 'Loops.ts')).toBeUndefined();
  });

  it('reports a location without the Note and one that does not exist, and nothing else', () => {
    const problems = checkNotes(root);
    expect(problems).toEqual([
      `src/kernels/Missing.ts:1: ${N} [Row loops] in src/wasm/Loops.ts: no such file or folder (defined in src/iter/Loops.ts)`,
      `src/kernels/Sibling.ts:1: ${N} [Row loops] in Loops.ts: no such file or folder (defined in src/iter/Loops.ts)`,
      `src/kernels/Wrong.ts:1: ${N} [Row loops] is not in src/iter/Reduce.ts (defined in src/iter/Loops.ts)`,
    ]);
  });

  it('still reports a Note referenced but never defined', () => {
    writeFileSync(join(root, 'src/kernels/Undefined.ts'), `// See ${N} [Nowhere]\n`);
    try {
      expect(checkNotes(root)).toContain(`${N} [Nowhere] is referenced but never defined: src/kernels/Undefined.ts:1`);
    } finally {
      rmSync(join(root, 'src/kernels/Undefined.ts'));
    }
  });

  it('finds no problem in the repository', () => {
    expect(checkNotes()).toEqual([]);
  });
});
