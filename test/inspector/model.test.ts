// The dispatch inspector's data layer (inspector/src/model.ts, trace.ts, samples.ts) in Node: what the
// page draws must be what the dispatcher computes. The page itself is tested in Chromium by
// `npm run test:inspector` (inspector/test/run.ts).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DispatchKey, dispatchKeyToString } from '../../src/c10/DispatchKey.js';
import { DispatchKeySet, getDispatchTableIndexForDispatchKey } from '../../src/c10/DispatchKeySet.js';
import { addDispatchObserver, type DispatchEvent } from '../../src/dispatch/debug.js';
import { Dispatcher } from '../../src/dispatch/Dispatcher.js';
import { TABLE_KEYS } from '../../src/dispatch/OperatorEntry.js';
import { Tensor } from '../../src/tensor/Tensor.js';
import * as torch from '../../src/torch.js';
import { diffSlots, emptySlots, indexSteps, keySetBits, tableSlots } from '../../inspector/src/model.js';
import { SAMPLES } from '../../inspector/src/samples.js';
import { flatten, traceSnippet } from '../../inspector/src/trace.js';

const dispatcher = Dispatcher.singleton();

/** `dumpComputedTable` as key → line, and the slots as the same map. */
function dumped(op: string): [string, string][] {
  return dispatcher
    .dumpComputedTable(op)
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)] as [string, string])
    .sort();
}

function shown(op: string): [string, string][] {
  return tableSlots(op)!
    .filter((s) => s.source !== 'missing')
    .map((s) => [s.name, s.debug] as [string, string])
    .sort();
}

describe('inspector model: dispatch tables', () => {
  it('every operator: the slots equal dumpComputedTable, at the index of their key', () => {
    const names = dispatcher.getAllOpNames();
    expect(names.length).toBeGreaterThan(100);
    for (const op of names) {
      expect(shown(op), op).toEqual(dumped(op));
      const slots = tableSlots(op)!;
      expect(slots.length).toBe(TABLE_KEYS.length);
      for (const s of slots) expect(s.index).toBe(getDispatchTableIndexForDispatchKey(s.key));
    }
  });

  it('sources: aten::add.Tensor has a kernel at CPU, an alias kernel at AutogradCPU, a fallthrough, a fallback, a hole', () => {
    const by = new Map(tableSlots('aten::add.Tensor')!.map((s) => [s.name, s]));
    expect(by.get('CPU')!.source).toBe('kernel');
    expect(by.get('AutogradCPU')!.source).toBe('alias');
    expect(by.get('AutogradCPU')!.tag).toBe('autograd kernel');
    expect(by.get('ADInplaceOrView')!.source).toBe('fallthrough');
    expect(by.get('Python')!.source).toBe('fallback');
    expect(by.get('CUDA')!.source).toBe('missing');
    expect(tableSlots('nope::nothing')).toBeNull();
  });

  it('every sample changes its slots while loaded and restores all of them on remove()', () => {
    for (const sample of SAMPLES) {
      const before = tableSlots(sample.op) ?? emptySlots();
      const lib = sample.load();
      const changed = diffSlots(before, tableSlots(sample.op) ?? emptySlots());
      lib.remove();
      expect(changed.length, sample.id).toBeGreaterThan(0);
      expect(diffSlots(before, tableSlots(sample.op) ?? emptySlots()), sample.id).toEqual([]);
    }
    const fallback = SAMPLES.find((s) => s.id === 'fallback')!;
    const before = tableSlots(fallback.op)!;
    {
      using _lib = fallback.load();
      expect(diffSlots(before, tableSlots(fallback.op)!).map((c) => c.after.name)).toEqual(['PrivateUse1']);
    }
    expect(diffSlots(before, tableSlots(fallback.op)!)).toEqual([]);
  });
});

describe('inspector model: key sets', () => {
  it('every runtime key: the step-by-step index is the library index and names the key', () => {
    for (const k of TABLE_KEYS) {
      if (k === DispatchKey.Undefined) continue;
      const s = indexSteps(DispatchKeySet.fromKey(k));
      expect(s.index, dispatchKeyToString(k)).toBe(getDispatchTableIndexForDispatchKey(k));
      expect(s.libraryIndex).toBe(s.index);
      expect(s.keyName).toBe(dispatchKeyToString(k));
    }
  });

  it('any key set: offset + backend index = getDispatchTableIndexForDispatchKeySet', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 62n) - 1n }), (raw) => {
        const ks = DispatchKeySet.fromRaw(raw);
        const s = indexSteps(ks);
        expect(s.offset + s.backendIndex).toBe(ks.getDispatchTableIndexForDispatchKeySet());
        expect(s.key).toBe(ks.highestPriorityTypeId());
        const bits = keySetBits(ks);
        expect(bits.filter((b) => b.set).length).toBe(
          raw
            .toString(2)
            .split('')
            .filter((c) => c === '1').length,
        );
        expect(
          BigInt(
            `0b${bits
              .map((b) => (b.set ? '1' : '0'))
              .reverse()
              .join('')}`,
          ),
        ).toBe(raw);
      }),
    );
  });

  it('a requires-grad CPU tensor: bits CPU and AutogradFunctionality, AutogradCPU at offset 96 + 0', () => {
    const ks = torch.empty([2], { requires_grad: true }).keySet;
    const bits = keySetBits(ks);
    expect(bits[0]).toEqual({ bit: 0, kind: 'backend', name: 'CPU', set: true });
    expect(bits.find((b) => b.name === 'AutogradFunctionality')!.set).toBe(true);
    const s = indexSteps(ks.minus(DispatchKeySet.of(DispatchKey.AutocastCPU, DispatchKey.ADInplaceOrView)));
    expect([s.functionalityName, s.backendIndex, s.keyName, s.index]).toEqual([
      'AutogradFunctionality',
      0,
      'AutogradCPU',
      getDispatchTableIndexForDispatchKey(DispatchKey.AutogradCPU),
    ]);
  });
});

describe('inspector model: the call tree', () => {
  it('observer events carry the key set the call dispatches with', () => {
    const x = torch.ones([2], { requires_grad: true });
    const add = dispatcher.findSchemaOrThrow('aten::add', 'Tensor');
    const expected = add.computeDispatchKeySet(x, x, 1);
    const events: DispatchEvent[] = [];
    const remove = addDispatchObserver({ onEnter: (e) => events.push(e) });
    try {
      torch.add(x, x);
    } finally {
      remove();
    }
    const first = events.find((e) => e.op === 'aten::add.Tensor')!;
    expect(first.keySet.equals(expected)).toBe(true);
    for (const e of events) expect(e.key).toBe(e.keySet.highestPriorityTypeId());
  });

  it('torch.add(x, y).sum().backward(): add at AutogradCPU then CPU, the nodes, Tensor restored', () => {
    const methods = Object.getOwnPropertyNames(Tensor.prototype).map((n) => Object.getOwnPropertyDescriptor(Tensor.prototype, n));
    const r = traceSnippet('torch.add(x, y).sum().backward()');
    expect(r.error).toBeNull();
    const calls = flatten(r.calls);
    const i = calls.findIndex((c) => c.op === 'aten::add.Tensor');
    expect([calls[i]!.kind, calls[i]!.key, calls[i]!.depth, calls[i]!.index]).toEqual([
      'call',
      'AutogradCPU',
      0,
      getDispatchTableIndexForDispatchKey(DispatchKey.AutogradCPU),
    ]);
    expect([calls[i + 1]!.op, calls[i + 1]!.kind, calls[i + 1]!.key, calls[i + 1]!.depth]).toEqual([
      'aten::add.Tensor',
      'redispatch',
      'CPU',
      1,
    ]);
    expect(calls[i + 1]!.kernel).toBe(new Map(dumped('aten::add.Tensor')).get('CPU'));
    expect(calls[i]!.children[0]).toBe(calls[i + 1]);
    for (const c of calls) expect(c.totalMs).toBeGreaterThanOrEqual(0);
    expect(r.nodes.map((n) => n.name)).toEqual(expect.arrayContaining(['AddBackward0', 'SumBackward0', 'torch::autograd::AccumulateGrad']));
    expect(r.nodes.find((n) => n.name === 'SumBackward0')!.next).toEqual(['AddBackward0']);
    const after = Object.getOwnPropertyNames(Tensor.prototype).map((n) => Object.getOwnPropertyDescriptor(Tensor.prototype, n));
    expect(after).toEqual(methods);
  });

  it('a failing snippet reports its error and records no stray state', () => {
    const r = traceSnippet('torch.add(x, torch.ones([3]))');
    expect(r.error).toMatch(/size/);
    expect(traceSnippet('x.mul(y)').value).toContain('tensor');
  });
});
