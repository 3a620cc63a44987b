// The tutorials page of the browser test (run by tools/browser/run.ts): PyTorch's Quickstart, ported line for
// line in examples/tutorials/quickstart.ts and bundled unchanged by run.ts, runs in Chromium on the dist bundle
// and must print what PyTorch 2.13 prints (test/golden/tutorials.json), by the rule the Node test applies
// (tools/browser/printed.ts). Its data and its model file: See Note [A tutorial's files in the page].

import { files, readFileSync, writeFileSync } from './node_shim.js';
import { comparePrinted, trimTrailingEmpty } from './printed.js';
import type { CheckResult, PageResults } from './util.js';

type Aten = typeof import('../../src/index.js');

/** What run.ts gives the page. */
export interface TutorialPageOptions {
  /** Each tutorial to run (bundled by run.ts as /examples/tutorials/<name>.js) with PyTorch's printed lines. */
  readonly expected: Readonly<Record<string, readonly string[]>>;
  /** The data files to fetch before the tutorials run (URL pathnames, e.g. /data/fashion-mnist-subset/...). */
  readonly data: readonly string[];
}

/** console.log's line(s) for its arguments: a Tensor or Module prints as its `toString()` (PyTorch's repr). */
function formatArgs(args: unknown[]): string {
  return args.map((a) => (typeof a === 'string' ? a : String(a))).join(' ');
}

/** Runs each tutorial with console.log captured and compares its lines with PyTorch's; never throws. */
export async function runTutorialChecks(aten: Aten, options: TutorialPageOptions): Promise<PageResults> {
  const checks: CheckResult[] = [];
  const fail = (name: string, e: unknown): void => {
    checks.push({ name, ok: false, message: e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e) });
  };
  const g = globalThis as { navigator?: { userAgent: string } };

  const dataName = `tutorials: fetch the data files (${options.data.length}) into the page's files`;
  try {
    let bytes = 0;
    for (const path of options.data) {
      const res = await fetch(path);
      if (!res.ok) throw new Error(`HTTP ${res.status} for ${path}`);
      const data = new Uint8Array(await res.arrayBuffer());
      files.set(path, data);
      bytes += data.length;
    }
    checks.push({ name: dataName, ok: true, message: `${bytes} bytes` });
  } catch (e) {
    fail(dataName, e);
    return { checks, userAgent: g.navigator?.userAgent ?? '' };
  }

  const previousFs = aten.setSerializationFileSystem({ readFile: readFileSync, writeFile: writeFileSync });
  try {
    for (const [name, want] of Object.entries(options.expected)) {
      const checkName = `tutorials: ${name} prints what PyTorch prints (examples/tutorials/${name}.ts, unchanged)`;
      const lines: string[] = [];
      const log = console.log;
      console.log = (...args: unknown[]): void => {
        lines.push(...formatArgs(args).split('\n'));
      };
      const start = performance.now();
      try {
        await import(`/examples/tutorials/${name}.js`);
      } catch (e) {
        fail(checkName, e);
        continue;
      } finally {
        console.log = log;
      }
      const seconds = ((performance.now() - start) / 1000).toFixed(1);
      const got = trimTrailingEmpty(lines);
      const diff = comparePrinted(got, want);
      checks.push({
        name: checkName,
        ok: diff === null,
        message:
          diff ?? `${got.length} lines equal PyTorch's (numbers to rel 2e-3; last: ${JSON.stringify(got[got.length - 1])}) in ${seconds} s`,
      });
    }
  } finally {
    aten.setSerializationFileSystem(previousFs);
  }
  return { checks, userAgent: g.navigator?.userAgent ?? '' };
}
