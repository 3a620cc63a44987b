// `npm run check:size`, first part: the module-size rule outside src/. No hand-written TypeScript or Python file
// under tools/ or test/ may exceed MAX_LINES lines (README, "Layout": no hand-written module over ~600 lines);
// split one along its natural seams (tools/golden/autograd_semantics/, test/autograd/semantics/) rather than
// raising the limit. The lines are counted as ESLint's `max-lines` counts them for src/ (eslint.config.js): every
// line, blank and comment lines included, a final newline ending the last line. Exempt, as src/generated/ is:
// files under a `generated/` folder and the golden fixtures (test/golden/: data written by tools/golden/).
// The files are git's tracked and untracked-but-not-ignored ones, so a new file is checked before it is added.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The most lines a hand-written module may have (eslint.config.js's `max-lines` for src/). */
export const MAX_LINES = 600;
/** The folders this check covers (src/ and inspector/ are ESLint's `max-lines`). */
export const FOLDERS = ['tools', 'test'] as const;
/** The hand-written languages checked. */
const EXTENSIONS = /\.(ts|mts|cts|py)$/;
/** Generated files and fixtures: not hand-written, so not held to the rule. */
const EXEMPT = [/(^|\/)generated\//, /^test\/golden\//];

/** The number of lines of `text` as ESLint's max-lines counts them (a trailing newline opens no new line). */
export function countLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split(/\r\n|\r|\n/);
  return text.endsWith('\n') ? lines.length - 1 : lines.length;
}

/** Whether `path` (relative to the repository root, `/`-separated) is held to the rule. */
export function isChecked(path: string): boolean {
  return EXTENSIONS.test(path) && FOLDERS.some((f) => path.startsWith(`${f}/`)) && !EXEMPT.some((re) => re.test(path));
}

/** Every checked file over MAX_LINES, with its line count. */
export function oversized(root = ROOT): { path: string; lines: number }[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...FOLDERS], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const out: { path: string; lines: number }[] = [];
  for (const path of listed.split('\0')) {
    if (path === '' || !isChecked(path)) continue;
    let text: string;
    try {
      text = readFileSync(join(root, path), 'utf8');
    } catch {
      continue; // deleted in the work tree but still in the index
    }
    const lines = countLines(text);
    if (lines > MAX_LINES) out.push({ path, lines });
  }
  return out.sort((a, b) => b.lines - a.lines);
}

function main(): void {
  const over = oversized();
  if (over.length > 0) {
    for (const { path, lines } of over) console.log(`size: FAIL ${path} has ${lines} lines (at most ${MAX_LINES}; split it)`);
    process.exitCode = 1;
  } else {
    console.log(`size: ok, every hand-written .ts/.py file under ${FOLDERS.join('/, ')}/ has at most ${MAX_LINES} lines`);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) main();
