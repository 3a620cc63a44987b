// DOM assertions for each panel of the inspector and its keyboard navigation. Expected values come from
// aten-ts itself run in Node (the same registry, key-set arithmetic and sample libraries), never from the
// page under test: the page must show what the library computes.

import type { Page } from 'playwright-core';
import { DispatchKey, dispatchKeyToString } from '../../src/c10/DispatchKey.js';
import { getDispatchTableIndexForDispatchKey } from '../../src/c10/DispatchKeySet.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { Dispatcher } from '../../src/dispatch/Dispatcher.js';
import * as torch from '../../src/torch.js';
import { diffSlots, emptySlots, tableSlots } from '../src/model.js';
import { SAMPLES } from '../src/samples.js';
import { Checks, attrs, evalIn, expect, expectEqual, text } from './harness.js';

const ADD = 'aten::add.Tensor';

/** `dumpComputedTable(op)` in Node, as { key: line } (the text after `key: `). */
function dumpedTable(op: string): Map<string, string> {
  const lines = Dispatcher.singleton().dumpComputedTable(op).trim().split('\n');
  return new Map(lines.map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]));
}

/** The slots a sample changes, computed in Node by loading and removing it there. */
function expectedChanges(sampleId: string): string[] {
  const sample = SAMPLES.find((s) => s.id === sampleId)!;
  const before = tableSlots(sample.op) ?? emptySlots();
  // The override sample's "Overriding a previously registered kernel" warning is expected: keep it off the log.
  const previous = setWarningHandler(() => {});
  const lib = sample.load();
  try {
    return diffSlots(before, tableSlots(sample.op) ?? emptySlots()).map((c) => c.after.name);
  } finally {
    lib.remove();
    setWarningHandler(previous);
  }
}

async function selectTab(page: Page, id: string): Promise<void> {
  await page.click(`#tab-${id}`);
  expectEqual(await page.locator(`#panel-${id}`).isVisible(), true, `panel ${id} visible`);
}

export async function operatorsChecks(c: Checks, page: Page): Promise<void> {
  c.section('Operators');
  await c.check('lists every registered operator', async () => {
    const n = Dispatcher.singleton().getAllOpNames().length;
    const count = await text(page, '#op-count');
    expect(count.startsWith(`${n} of ${n} operators`), `#op-count: expected "${n} of ${n} operators…", got "${count}"`);
    return `${n} operators`;
  });
  await c.check(`${ADD}: schema and a kernel in the CPU and Autograd slots`, async () => {
    await selectTab(page, 'operators');
    expectEqual(await text(page, '#op-schema'), Dispatcher.singleton().findOp(ADD)!.schema!.toString(), 'schema');
    const cpu = page.locator('#op-table td[data-key="CPU"]');
    expectEqual(await cpu.getAttribute('data-source'), 'kernel', 'CPU slot source');
    expectEqual(await page.locator('#op-table td[data-key="AutogradCPU"]').getAttribute('data-source'), 'alias', 'AutogradCPU slot source');
    expectEqual(
      await page.locator('#op-table td[data-key="ADInplaceOrView"]').getAttribute('data-source'),
      'fallthrough',
      'ADInplaceOrView',
    );
    expectEqual(await page.locator('#op-table td[data-key="CUDA"]').getAttribute('data-source'), 'missing', 'CUDA slot source');
  });
  await c.check(`${ADD}: every slot equals Node's dumpComputedTable`, async () => {
    const keys = await attrs(page, '#op-table td.slot', 'data-key');
    const debugs = await attrs(page, '#op-table td.slot', 'data-debug');
    const indices = await attrs(page, '#op-table td.slot', 'data-index');
    expectEqual(keys.length, 137, 'slot count');
    const dumped = dumpedTable(ADD);
    const shown = new Map<string, string>();
    keys.forEach((k, i) => {
      expectEqual(Number(indices[i]), getDispatchTableIndexForDispatchKey(DispatchKey[k as keyof typeof DispatchKey]), `index of ${k}`);
      if (debugs[i] !== '') shown.set(k!, debugs[i]!);
    });
    expectEqual([...shown].sort(), [...dumped].sort(), 'non-missing slots and their lines');
    return `${shown.size} filled slots`;
  });
  await c.check('search narrows the list and shows an exact match', async () => {
    await page.fill('#op-search', 'aten::mul.Tensor');
    const options = await evalIn<string[]>(page, `[...document.querySelectorAll('#op-list option')].map((o) => o.value)`);
    expect(options.length > 0 && options.every((o) => o.includes('aten::mul.Tensor')), `options: ${options.join(', ')}`);
    expectEqual(await text(page, '#op-title'), 'aten::mul.Tensor', 'shown operator');
    await page.fill('#op-search', '');
    await page.selectOption('#op-list', ADD);
    expectEqual(await text(page, '#op-title'), ADD, 'shown operator after selecting');
  });
}

interface KsCase {
  readonly label: string;
  readonly device: string;
  readonly grad: boolean;
  readonly inference: boolean;
  readonly key: DispatchKey;
  /** The tensor made the same way in Node (null: no backend, see keysets.ts). */
  readonly tensorKs: string | null;
}

export async function keySetsChecks(c: Checks, page: Page): Promise<void> {
  c.section('Key sets');
  await selectTab(page, 'keysets');
  const cases: KsCase[] = [
    {
      label: 'CPU, requires grad',
      device: 'cpu',
      grad: true,
      inference: false,
      key: DispatchKey.AutogradCPU,
      tensorKs: String(torch.empty([2, 3], { requires_grad: true }).keySet),
    },
    {
      label: 'Meta',
      device: 'meta',
      grad: false,
      inference: false,
      key: DispatchKey.AutogradMeta,
      tensorKs: String(torch.empty([2, 3], { device: 'meta' }).keySet),
    },
    {
      label: 'CPU, inference mode',
      device: 'cpu',
      grad: false,
      inference: true,
      key: DispatchKey.CPU,
      tensorKs: String(torch.inferenceMode(() => torch.empty([2, 3])).keySet),
    },
    { label: 'PrivateUse1', device: 'privateuseone', grad: false, inference: false, key: DispatchKey.AutogradPrivateUse1, tensorKs: null },
  ];
  for (const k of cases) {
    await c.check(k.label, async () => {
      await page.check(`#ks-device-${k.device}`);
      await page.setChecked('#ks-requires-grad', k.grad);
      await page.setChecked('#ks-inference', k.inference);
      if (k.tensorKs !== null) expectEqual(await text(page, '#ks-tensor'), k.tensorKs, 'tensor key set');
      expectEqual(await text(page, '#ks-key'), dispatchKeyToString(k.key), 'highest-priority key');
      const index = getDispatchTableIndexForDispatchKey(k.key);
      expectEqual(Number(await text(page, '#ks-index')), index, 'table index');
      const offset = Number(await text(page, '#ks-offset'));
      const backend = Number(await text(page, '#ks-backend-index'));
      expectEqual(offset + backend, index, 'offset + backend index');
      const autograd = await page.locator('#ks-bits td[data-name="AutogradFunctionality"]').getAttribute('data-set');
      expectEqual(autograd, k.inference ? '0' : '1', 'AutogradFunctionality bit');
      const backendName = k.device === 'cpu' ? 'CPU' : k.device === 'meta' ? 'Meta' : 'PrivateUse1';
      expectEqual(
        await page.locator(`#ks-bits td[data-bit][data-name="${backendName}"]`).getAttribute('data-set'),
        '1',
        `${backendName} bit`,
      );
      expectEqual((await attrs(page, '#ks-bits td[data-set="1"]', 'data-bit')).length > 0, true, 'some bit drawn set');
      return `${dispatchKeyToString(k.key)} at slot ${offset} + ${backend} = ${index}`;
    });
  }
  await c.check("the operator's fallthrough mask: BackendSelect survives for aten::empty.memory_format only", async () => {
    const empty = 'aten::empty.memory_format';
    expect(Dispatcher.singleton().findOp(empty)!.hasKernelForDispatchKey(DispatchKey.BackendSelect), `${empty} has a BackendSelect kernel`);
    await page.check('#ks-device-cpu');
    await page.setChecked('#ks-requires-grad', false);
    await page.setChecked('#ks-inference', true);
    expect((await text(page, '#ks-after-tls')).includes('BackendSelect'), 'BackendSelect comes from the TLS included set');
    expectEqual(await text(page, '#ks-key'), 'CPU', `${ADD}: BackendSelect is a fallthrough, masked out`);
    await page.fill('#ks-op', empty);
    expectEqual(await text(page, '#ks-key'), 'BackendSelect', `${empty}: its BackendSelect kernel is chosen`);
    expectEqual(Number(await text(page, '#ks-index')), getDispatchTableIndexForDispatchKey(DispatchKey.BackendSelect), 'table index');
    await page.fill('#ks-op', ADD);
  });
  await page.check('#ks-device-cpu');
  await page.setChecked('#ks-requires-grad', false);
  await page.setChecked('#ks-inference', false);
}

export async function callsChecks(c: Checks, page: Page): Promise<void> {
  c.section('Calls');
  await selectTab(page, 'calls');
  await c.check('torch.add(x, y).sum().backward(): add at AutogradCPU, then at CPU', async () => {
    await page.fill('#calls-code', 'torch.add(x, y).sum().backward()');
    await page.focus('#calls-code');
    await page.keyboard.press('Control+Enter');
    const rows = await evalIn<{ op: string; key: string; kind: string; depth: string; kernel: string }[]>(
      page,
      `[...document.querySelectorAll('#calls-tree tbody tr')].map((r) => ({ op: r.dataset.op, key: r.dataset.key, kind: r.dataset.kind, depth: r.dataset.depth, kernel: r.querySelector('.kernel').textContent }))`,
    );
    const i = rows.findIndex((r) => r.op === ADD);
    expect(i >= 0, `no ${ADD} row in ${rows.map((r) => r.op).join(', ')}`);
    expectEqual([rows[i]!.key, rows[i]!.kind, rows[i]!.depth], ['AutogradCPU', 'call', '0'], 'first add row');
    expectEqual(
      [rows[i + 1]!.op, rows[i + 1]!.key, rows[i + 1]!.kind, rows[i + 1]!.depth],
      [ADD, 'CPU', 'redispatch', '1'],
      'second add row',
    );
    expectEqual(rows[i + 1]!.kernel, dumpedTable(ADD).get('CPU'), 'CPU kernel of add');
    expect(
      rows.some((r) => r.op === 'aten::sum' && r.key === 'AutogradCPU'),
      'aten::sum at AutogradCPU',
    );
    const nodes = await attrs(page, '#calls-nodes tbody tr', 'data-node');
    for (const n of ['AddBackward0', 'SumBackward0', 'torch::autograd::AccumulateGrad'])
      expect(nodes.includes(n), `autograd node ${n} in ${nodes.join(', ')}`);
    expect((await text(page, '#calls-summary')).startsWith('Result: undefined'), 'summary');
    return `${rows.length} calls, nodes ${nodes.join(', ')}`;
  });
  await c.check('a failing snippet reports the error', async () => {
    await page.fill('#calls-code', 'torch.add(x, torch.ones([3]))');
    await page.click('#calls-run');
    const summary = await text(page, '#calls-summary');
    expect(summary.includes('Error') && summary.includes('size'), `summary: ${summary}`);
  });
}

export async function diffChecks(c: Checks, page: Page): Promise<void> {
  c.section('Diff');
  await selectTab(page, 'diff');
  for (const sample of SAMPLES) {
    await c.check(`${sample.id}: load changes the expected slots, unload returns them`, async () => {
      const expected = expectedChanges(sample.id);
      expect(expected.length > 0, 'the sample changes something in Node');
      await page.check(`#diff-sample-${sample.id}`);
      const before = await attrs(page, '#diff-table td.slot', 'data-debug');
      await page.click('#diff-load');
      const changed = await attrs(page, '#diff-changes tbody tr', 'data-key');
      expectEqual(changed, expected, 'changed slots');
      expectEqual(
        (await attrs(page, '#diff-table td.slot.changed', 'data-key')).length,
        expected.length,
        'slots marked changed in the grid',
      );
      if (sample.id === 'override') {
        // The override serves calls while loaded: the Calls panel shows it in the CPU slot.
        await selectTab(page, 'calls');
        await page.fill('#calls-code', 'torch.add(x, y)');
        await page.click('#calls-run');
        const kernel = await text(page, '#calls-tree tbody tr[data-key="CPU"] .kernel');
        expectEqual(kernel, 'registered at inspector sample (override) [kernel]', 'kernel of add at CPU while the override is loaded');
        await selectTab(page, 'diff');
      }
      await page.click('#diff-unload');
      expectEqual(await page.locator('#diff-changes').getAttribute('data-count'), '0', 'changed count after unload');
      expect((await text(page, '#diff-status')).includes('back to their state before loading'), 'status after unload');
      expectEqual(await attrs(page, '#diff-table td.slot', 'data-debug'), before, 'every slot as before loading');
      return `${expected.length} slots: ${expected.slice(0, 4).join(', ')}${expected.length > 4 ? ', …' : ''}`;
    });
  }
  await c.check('a using block loads and unloads', async () => {
    await page.check('#diff-sample-custom-op');
    await page.click('#diff-using');
    const n = expectedChanges('custom-op').length;
    expectEqual(
      await text(page, '#diff-status'),
      `In the using block ${n} slots of inspector::scale changed; after it (Symbol.dispose → remove()) 0 differ.`,
      'status',
    );
  });
  await c.check('the Operators panel follows the registry', async () => {
    await page.click('#diff-load');
    await selectTab(page, 'operators');
    await page.fill('#op-search', 'inspector::scale');
    expectEqual(await text(page, '#op-title'), 'inspector::scale', 'custom op shown while loaded');
    await selectTab(page, 'diff');
    await page.click('#diff-unload');
    await selectTab(page, 'operators');
    expect((await text(page, '#op-count')).startsWith('0 of'), 'custom op gone after unload');
    await page.fill('#op-search', '');
  });
}

export async function keyboardChecks(c: Checks, page: Page): Promise<void> {
  c.section('Keyboard');
  await c.check('tabs: arrows, Home and End move the selection; Tab enters the panel', async () => {
    await page.focus('#tab-operators');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowRight');
    const focused = (): Promise<string> => evalIn(page, 'document.activeElement.id');
    expectEqual(await focused(), 'tab-keysets', 'focus after ArrowRight');
    expectEqual(await page.locator('#tab-keysets').getAttribute('aria-selected'), 'true', 'selected');
    expectEqual(await page.locator('#panel-operators').isHidden(), true, 'previous panel hidden');
    await page.keyboard.press('End');
    expectEqual(await focused(), 'tab-diff', 'focus after End');
    await page.keyboard.press('ArrowRight');
    expectEqual(await focused(), 'tab-operators', 'ArrowRight wraps');
    await page.keyboard.press('ArrowLeft');
    expectEqual(await focused(), 'tab-diff', 'ArrowLeft wraps');
    await page.keyboard.press('Home');
    expectEqual(await focused(), 'tab-operators', 'focus after Home');
    await page.keyboard.press('Tab');
    expectEqual(await focused(), 'panel-operators', 'Tab moves into the panel');
    expectEqual(
      await evalIn(page, `[...document.querySelectorAll('[role=tab]')].filter((t) => t.tabIndex === 0).length`),
      1,
      'one tab in the tab order',
    );
  });
  await c.check('dispatch table grid: arrow keys move between slots and show the kernel', async () => {
    await page.focus('#op-table table.per-backend td[data-key="CPU"]');
    await page.keyboard.press('ArrowRight');
    const key = (): Promise<string> => evalIn(page, 'document.activeElement.dataset.key');
    expectEqual(await key(), 'CUDA', 'after ArrowRight');
    await page.keyboard.press('ArrowDown');
    expectEqual(await key(), 'QuantizedCUDA', 'after ArrowDown');
    await page.keyboard.press('End');
    expectEqual(await key(), 'QuantizedMeta', 'after End');
    await page.keyboard.press('Home');
    expectEqual(await key(), 'QuantizedCPU', 'after Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expectEqual(await key(), 'AutogradCPU', 'down to the Autograd row');
    expect(
      (await text(page, '#op-detail')).startsWith(
        `AutogradCPU (slot ${getDispatchTableIndexForDispatchKey(DispatchKey.AutogradCPU)}): registered at`,
      ),
      'detail shows the focused slot',
    );
  });
  await c.check('key set controls work from the keyboard', async () => {
    await selectTab(page, 'keysets');
    await page.focus('#ks-device-cpu');
    await page.keyboard.press('ArrowRight');
    expectEqual(await text(page, '#ks-key'), 'AutogradMeta', 'Meta picked with ArrowRight');
    await page.focus('#ks-inference');
    await page.keyboard.press('Space');
    expectEqual(await text(page, '#ks-key'), 'Meta', 'inference mode toggled with Space');
    await page.keyboard.press('Space');
    await page.check('#ks-device-cpu');
  });
}
