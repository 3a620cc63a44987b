// The README's floor map ("Layout: floors") against the floors `npm run check:layers` enforces
// (.dependency-cruiser.cjs): the same floors in the same order, every folder of src/ on the floor whose patterns
// match it, and a README in every folder of src/.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** FLOORS of .dependency-cruiser.cjs, bottom to top: each floor's name and path patterns. */
function cruiserFloors(): { name: string; patterns: RegExp[] }[] {
  const text = readFileSync(join(ROOT, '.dependency-cruiser.cjs'), 'utf8');
  const block = /const FLOORS = \[([\s\S]*?)\n\];/.exec(text)?.[1];
  if (block === undefined) throw new Error('FLOORS not found in .dependency-cruiser.cjs');
  return [...block.matchAll(/^\s*\['(\w+)', \[(.*)\]\],$/gm)].map((m) => ({
    name: m[1]!,
    patterns: [...m[2]!.matchAll(/'([^']*)'/g)].map((p) => new RegExp(p[1]!.replace(/\\\\/g, '\\'))),
  }));
}

/** The README's map, top to bottom: each floor's name and the `src/<folder>/` paths it lists. */
function readmeMap(): { name: string; folders: string[] }[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Layout: floors'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("README.md's floor map not found");
  const floors: { name: string; folders: string[] }[] = [];
  for (const line of block.split('\n')) {
    const named = /^ (\w+) ─+ /.exec(line) ?? /^ \((beside them)\)/.exec(line);
    if (named !== null) floors.push({ name: named[1]!, folders: [] });
    // Only the path column: the folders a line starts with (before its description).
    const paths = /^ (?:\w+ ─+ |\(beside them\))?\s*((?:src\/[\w/.]+,? ?)+)/.exec(line);
    if (paths !== null) floors.at(-1)!.folders.push(...[...paths[1]!.matchAll(/src\/(\w+)\//g)].map((m) => m[1]!));
  }
  return floors;
}

const srcFolders = readdirSync(join(ROOT, 'src')).filter((d) => statSync(join(ROOT, 'src', d)).isDirectory());

describe("README's floor map", () => {
  const floors = cruiserFloors();
  const map = readmeMap();

  it('names the floors of .dependency-cruiser.cjs, top to bottom, then the folders beside them', () => {
    expect(floors.length).toBeGreaterThan(10);
    expect(map.map((f) => f.name)).toEqual([...floors.map((f) => f.name)].reverse().concat('beside them'));
  });

  it('lists every folder of src/ once, on the floor whose patterns match it', () => {
    const listed = map.flatMap((f) => f.folders);
    expect([...listed].sort()).toEqual([...srcFolders].sort());
    for (const { name, folders } of map) {
      for (const folder of folders) {
        const owner = floors.find((f) => f.patterns.some((p) => p.test(`src/${folder}/x.ts`)));
        expect({ folder, floor: owner?.name ?? 'beside them' }).toEqual({ folder, floor: name });
      }
    }
  });

  it('every folder of src/ has a README', () => {
    const missing: string[] = [];
    const walk = (dir: string): void => {
      if (!existsSync(join(ROOT, dir, 'README.md'))) missing.push(dir);
      for (const d of readdirSync(join(ROOT, dir))) if (statSync(join(ROOT, dir, d)).isDirectory()) walk(`${dir}/${d}`);
    };
    for (const d of srcFolders) walk(`src/${d}`);
    expect(missing).toEqual([]);
  });
});
