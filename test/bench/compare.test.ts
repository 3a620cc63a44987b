// The pure parts of bench/compare (bench/compare/report.ts): medians, same-round ratios, units, the markdown table
// and the RESULTS.md section. Nothing here times anything or needs Python.
import { describe, expect, it } from 'vitest';
import {
  type Results,
  cellNotes,
  formatCell,
  formatTime,
  markdownTable,
  matmulGflops,
  median,
  replaceSection,
  sameRoundRatio,
  sig3,
} from '../../bench/compare/report.js';

describe('bench/compare report', () => {
  it('medians skip missing samples; even counts average the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, undefined, 1, 3, 2])).toBe(2.5);
    expect(median([undefined])).toBeUndefined();
    expect(median([])).toBeUndefined();
  });

  it('ratios are taken round by round, then the median of them', () => {
    // Round ratios 2, 4, 3 (round 3 has no torch sample): median 3, not median(a) / median(b) = 4 / 1.5.
    expect(sameRoundRatio([2, 8, 3, 5], [1, 2, 1, undefined])).toBe(3);
    expect(sameRoundRatio([2, 8, 6], [1, 2, 2])).toBe(3);
    expect(sameRoundRatio([1], [undefined])).toBeUndefined();
  });

  it('formats three significant digits with ns, µs, ms or s', () => {
    expect(sig3(1234.5)).toBe('1235');
    expect(sig3(12.345)).toBe('12.3');
    expect(sig3(0.012345)).toBe('0.0123');
    expect(formatTime(950)).toBe('950 ns');
    expect(formatTime(1500)).toBe('1.50 µs');
    expect(formatTime(12_340_000)).toBe('12.3 ms');
    expect(formatTime(2.5e9)).toBe('2.50 s');
  });

  it('cells: medians, GFLOP/s for matmul, "—" and "fails"', () => {
    expect(matmulGflops(1024, 2 * 1024 ** 3)).toBe(1);
    expect(formatCell('mul_1e6', { samples: [2e6, 1e6, 3e6] }, 1024)).toBe('2.00 ms');
    expect(formatCell('matmul_1024', { samples: [(2 * 1024 ** 3) / 10] }, 1024)).toBe('215 ms (10.0 GFLOP/s)');
    expect(formatCell('mul_1e6', { samples: [], status: 'unsupported', reason: 'no out=' }, 1024)).toBe('—');
    expect(formatCell('mul_1e6', { samples: [], status: 'fails', reason: 'boom' }, 1024)).toBe('fails');
    expect(formatCell('mul_1e6', undefined, 1024)).toBe('—');
  });

  it('the table has a column per system and the ratio; the notes say why a cell is empty', () => {
    const results: Results = {
      mul_1e6: {
        'aten-ts': { samples: [4e6, 6e6] },
        aten2: { samples: [2e6, 2e6] },
        torch1: { samples: [1e6, 2e6] },
        torch2: { samples: [1e6, 1e6] },
        tfjs: { samples: [], status: 'fails', reason: 'no kernel' },
        jax: { samples: [5e5, 5e5], note: 'wasm' },
      },
    };
    const table = markdownTable(results, { workloads: ['mul_1e6'], matmulN: 1024 }).split('\n');
    expect(table[0]).toBe(
      '| workload | aten-ts 1 thr | aten-ts 2 thr | torch 1 thr | torch 2 thr | tfjs-wasm | jax-js | ratio 1 thr | ratio 2 thr |',
    );
    expect(table[1]).toBe('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    expect(table[2]).toBe('| mul 1e6, fresh result | 5.00 ms | 2.00 ms | 1.50 ms | 1.00 ms | fails | 500 µs | 3.50 | 2.00 |');
    expect(cellNotes(results, ['mul_1e6'])).toEqual([
      '- tfjs-wasm, mul 1e6, fresh result: fails: no kernel',
      '- jax-js, mul 1e6, fresh result: wasm',
    ]);
  });

  it('replaces its RESULTS.md section and keeps the others, or appends it', () => {
    const heading = '## Side by side (bench/compare.ts)';
    const doc = `# Results\n\nintro\n\n## A\n\na\n\n${heading}\n\nold\n\n## B\n\nb\n`;
    expect(replaceSection(doc, heading, 'new')).toBe(`# Results\n\nintro\n\n## A\n\na\n\n${heading}\n\nnew\n\n## B\n\nb\n`);
    const last = `# Results\n\n## A\n\na\n\n${heading}\n\nold\n`;
    expect(replaceSection(last, heading, 'new\n')).toBe(`# Results\n\n## A\n\na\n\n${heading}\n\nnew\n`);
    expect(replaceSection('# Results\n\n## A\n\na\n', heading, 'new')).toBe(`# Results\n\n## A\n\na\n\n${heading}\n\nnew\n`);
  });
});
