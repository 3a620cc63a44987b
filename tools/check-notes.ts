// Every referenced note is defined, exactly once. A definition is a comment line holding `Note [` + its
// title + `]`, followed by a comment line of `~` (the underline); any other mention is a reference.
// Run: npx tsx tools/check-notes.ts   (npm run check:notes; part of npm test). Exits 1 on a problem.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIRS = ['src', 'test', 'bench', 'tools', 'examples'];
const EXTENSIONS = /\.(ts|js|cjs|mjs|md|yaml|yml|py|sh)$/;
const SKIP = /(^|\/)(node_modules|dist|golden)(\/|$)/;
const NOTE = /Note \[([^\]\n]+)\]/g;
const UNDERLINE = /^\s*(\/\/|#|\*)?\s*~{3,}\s*$/;

interface Site {
  readonly file: string;
  readonly line: number;
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (SKIP.test(relative(ROOT, path))) continue;
    if (statSync(path).isDirectory()) yield* files(path);
    else if (EXTENSIONS.test(name)) yield path;
  }
}

/** The definitions and references of every Note in the repository's text files. */
export function collectNotes(root = ROOT): { defs: Map<string, Site[]>; refs: Map<string, Site[]> } {
  const defs = new Map<string, Site[]>();
  const refs = new Map<string, Site[]>();
  const add = (m: Map<string, Site[]>, title: string, site: Site): void => void m.set(title, [...(m.get(title) ?? []), site]);
  const paths = [
    ...DIRS.flatMap((d) => [...files(join(root, d))]),
    ...readdirSync(root)
      .filter((n) => n.endsWith('.md'))
      .sort()
      .map((n) => join(root, n)),
  ];
  for (const path of paths) {
    const lines = readFileSync(path, 'utf8').split('\n');
    const file = relative(root, path);
    lines.forEach((text, i) => {
      for (const m of text.matchAll(NOTE)) {
        const title = (m[1] as string).trim();
        if (title === 'Title' || title.includes('${')) continue; // the convention itself, in docs and here
        const isDef = UNDERLINE.test(lines[i + 1] ?? '') && !/See Note|see Note|\(Note|Note \[[^\]]+\] in /.test(text);
        add(isDef ? defs : refs, title, { file, line: i + 1 });
      }
    });
  }
  return { defs, refs };
}

function main(): number {
  const { defs, refs } = collectNotes();
  const problems: string[] = [];
  for (const [title, sites] of [...refs].sort(([a], [b]) => a.localeCompare(b))) {
    if (!defs.has(title))
      problems.push(`Note [${title}] is referenced but never defined: ${sites.map((s) => `${s.file}:${s.line}`).join(', ')}`);
  }
  for (const [title, sites] of [...defs].sort(([a], [b]) => a.localeCompare(b))) {
    if (sites.length > 1)
      problems.push(`Note [${title}] is defined ${sites.length} times: ${sites.map((s) => `${s.file}:${s.line}`).join(', ')}`);
  }
  for (const p of problems) console.error(p);
  if (problems.length === 0) console.log(`check-notes: ${defs.size} notes defined, every reference resolves`);
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
