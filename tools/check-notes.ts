// Every referenced note is defined, exactly once. A definition is a comment line holding `Note [` + its
// title + `]`, followed by a comment line of `~` (the underline); any other mention is a reference. A reference
// that says where the note is (`See Note [Title] in src/iter/Loops.ts`, a folder `in src/random`, or a path
// from the referencing file's folder or a parent of it, `in dest/TensorBody.ts`) must name a file or folder
// that defines it; bench/RESULTS.md is a history, its locations are not checked.
// Run: npx tsx tools/check-notes.ts   (npm run check:notes; part of npm test). Exits 1 on a problem.

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIRS = ['src', 'test', 'bench', 'tools', 'examples'];
const EXTENSIONS = /\.(ts|js|cjs|mjs|md|yaml|yml|py|sh)$/;
const SKIP = /(^|\/)(node_modules|dist|golden)(\/|$)/;
const NOTE = /Note \[([^\]\n]+)\]/g;
const HISTORY = 'bench/RESULTS.md';
const UNDERLINE = /^\s*(\/\/|#|\*)?\s*~{3,}\s*$/;

interface Site {
  readonly file: string;
  readonly line: number;
  /** Where a reference says the note is defined (`... in <loc>`), as written. */
  readonly loc?: string;
}

/** `Note [Title] in <loc>`: a path-like word after `in` (with a file extension or a slash), backticks and a final
 * full stop dropped. */
const LOCATION = /^\]\s+in\s+`?([\w./-]*(?:\/|\.[A-Za-z]+)[\w./-]*?)[.'`]*(?=$|[\s,;:)'`])/;

function* files(root: string, dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (SKIP.test(relative(root, path))) continue;
    if (statSync(path).isDirectory()) yield* files(root, path);
    else if (EXTENSIONS.test(name)) yield path;
  }
}

/** The definitions and references of every Note in the repository's text files. */
export function collectNotes(root = ROOT): { defs: Map<string, Site[]>; refs: Map<string, Site[]> } {
  const defs = new Map<string, Site[]>();
  const refs = new Map<string, Site[]>();
  const add = (m: Map<string, Site[]>, title: string, site: Site): void => void m.set(title, [...(m.get(title) ?? []), site]);
  const paths = [
    ...DIRS.flatMap((d) => [...files(root, join(root, d))]),
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
        const loc = isDef ? undefined : LOCATION.exec(text.slice(m.index + m[0].length - 1))?.[1];
        add(isDef ? defs : refs, title, loc === undefined ? { file, line: i + 1 } : { file, line: i + 1, loc });
      }
    });
  }
  return { defs, refs };
}

/**
 * The file or folder a reference's location names, relative to the repository root: the path as written from
 * the root, else from the referencing file's folder or one of its parents; undefined if none exists.
 */
export function resolveLocation(root: string, from: string, loc: string): string | undefined {
  const clean = loc.replace(/\/$/, '');
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const candidate = join(dir, clean);
    if (existsSync(join(root, candidate))) return relative('.', candidate);
    if (dir === '.' || dir === '/' || dir === '') break;
  }
  return existsSync(join(root, clean)) ? clean : undefined;
}

/** Every problem: a reference without a definition, a title defined twice, a location that is wrong. */
export function checkNotes(root = ROOT): string[] {
  const { defs, refs } = collectNotes(root);
  const problems: string[] = [];
  for (const [title, sites] of [...refs].sort(([a], [b]) => a.localeCompare(b))) {
    const where = defs.get(title);
    if (where === undefined) {
      problems.push(`Note [${title}] is referenced but never defined: ${sites.map((s) => `${s.file}:${s.line}`).join(', ')}`);
      continue;
    }
    for (const site of sites) {
      if (site.loc === undefined || site.file === HISTORY) continue;
      const target = resolveLocation(root, site.file, site.loc);
      const defined = where.map((d) => d.file).join(', ');
      if (target === undefined) {
        problems.push(`${site.file}:${site.line}: Note [${title}] in ${site.loc}: no such file or folder (defined in ${defined})`);
      } else if (!where.some((d) => d.file === target || d.file.startsWith(`${target}/`))) {
        problems.push(`${site.file}:${site.line}: Note [${title}] is not in ${site.loc} (defined in ${defined})`);
      }
    }
  }
  for (const [title, sites] of [...defs].sort(([a], [b]) => a.localeCompare(b))) {
    if (sites.length > 1)
      problems.push(`Note [${title}] is defined ${sites.length} times: ${sites.map((s) => `${s.file}:${s.line}`).join(', ')}`);
  }
  return problems;
}

function main(): number {
  const problems = checkNotes();
  for (const p of problems) console.error(p);
  if (problems.length === 0) console.log(`check-notes: ${collectNotes().defs.size} notes defined, every reference resolves`);
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
