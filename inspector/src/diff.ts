// The Diff panel: load a sample Library and see which dispatch-table slots of its operator changed; unload
// it with `remove()` (or run a `using` block) and see every slot return to its state before loading.

import { Dispatcher } from '../../src/dispatch/Dispatcher.js';
import type { Library } from '../../src/dispatch/Library.js';
import { h, setChildren } from './dom.js';
import { diffSlots, emptySlots, tableSlots, type Slot } from './model.js';
import { SAMPLES, type Sample } from './samples.js';
import { legend, renderTable } from './tableGrid.js';

const snapshot = (op: string): Slot[] => tableSlots(op, Dispatcher.singleton()) ?? emptySlots();

export function diffPanel(onRegistryChange: () => void): HTMLElement {
  const loaded = new Map<string, { lib: Library; before: Slot[] }>();
  let selected: Sample = SAMPLES[0] as Sample;
  const radios = SAMPLES.map((s, i) =>
    h(
      'label',
      {},
      h('input', { type: 'radio', name: 'diff-sample', value: s.id, id: `diff-sample-${s.id}`, checked: i === 0 }),
      ` ${s.title}`,
    ),
  );
  const load = h('button', { type: 'button', id: 'diff-load' }, 'Load');
  const unload = h('button', { type: 'button', id: 'diff-unload' }, 'Unload (remove())');
  const usingBtn = h('button', { type: 'button', id: 'diff-using' }, 'Load and unload in a using block');
  const description = h('p', { id: 'diff-description' });
  const code = h('pre', { id: 'diff-code', class: 'schema' });
  const status = h('p', { id: 'diff-status', 'aria-live': 'polite' });
  const changesHost = h('div', { id: 'diff-changes-host' });
  const detail = h('p', { class: 'detail', 'aria-live': 'polite' }, 'Hover or focus a slot to see its kernel.');
  const tableHost = h('div', { id: 'diff-table' });

  const changesTable = (changes: ReturnType<typeof diffSlots>): HTMLElement =>
    changes.length === 0
      ? h('p', { id: 'diff-changes', 'data-count': 0 }, 'No slot differs from the table before loading.')
      : h(
          'table',
          { id: 'diff-changes', class: 'data', 'data-count': changes.length },
          h('caption', {}, `${changes.length} ${changes.length === 1 ? 'slot' : 'slots'} changed`),
          h('thead', {}, h('tr', {}, ...['slot', 'index', 'before', 'after'].map((t) => h('th', { scope: 'col' }, t)))),
          h(
            'tbody',
            {},
            ...changes.map((c) =>
              h(
                'tr',
                { 'data-key': c.after.name },
                h('th', { scope: 'row' }, c.after.name),
                h('td', { class: 'num' }, String(c.after.index)),
                h('td', { class: `src-${c.before.source}` }, c.before.debug === '' ? 'missing' : c.before.debug),
                h('td', { class: `src-${c.after.source}` }, c.after.debug === '' ? 'missing' : c.after.debug),
              ),
            ),
          ),
        );

  const update = (message: string): void => {
    const state = loaded.get(selected.id);
    description.textContent = selected.description;
    code.textContent = selected.code;
    load.disabled = state !== undefined;
    unload.disabled = state === undefined;
    usingBtn.disabled = state !== undefined;
    const now = snapshot(selected.op);
    const changes = state === undefined ? [] : diffSlots(state.before, now);
    status.textContent = message;
    setChildren(changesHost, changesTable(changes));
    setChildren(
      tableHost,
      renderTable(
        now,
        `${selected.op} ${state === undefined ? '(not loaded)' : '(loaded)'}`,
        (t) => (detail.textContent = t),
        new Set(changes.map((c) => c.after.index)),
      ),
    );
  };

  const fail = (e: unknown): void => update(`Error: ${e instanceof Error ? e.message : String(e)}`);
  load.addEventListener('click', () => {
    try {
      const before = snapshot(selected.op);
      loaded.set(selected.id, { lib: selected.load(), before });
      onRegistryChange();
      const n = diffSlots(before, snapshot(selected.op)).length;
      update(`Loaded “${selected.title}”: ${n} ${n === 1 ? 'slot' : 'slots'} of ${selected.op} changed.`);
      unload.focus();
    } catch (e) {
      fail(e);
    }
  });
  unload.addEventListener('click', () => {
    const state = loaded.get(selected.id);
    if (state === undefined) return;
    state.lib.remove();
    loaded.delete(selected.id);
    onRegistryChange();
    const back = diffSlots(state.before, snapshot(selected.op)).length === 0;
    update(
      back
        ? `Unloaded with remove(): all ${state.before.length} slots of ${selected.op} are back to their state before loading.`
        : `Unloaded, but some slots of ${selected.op} differ from before loading.`,
    );
    load.focus();
  });
  usingBtn.addEventListener('click', () => {
    try {
      const before = snapshot(selected.op);
      let during = 0;
      {
        using _lib = selected.load();
        during = diffSlots(before, snapshot(selected.op)).length;
      }
      const after = diffSlots(before, snapshot(selected.op)).length;
      update(`In the using block ${during} slots of ${selected.op} changed; after it (Symbol.dispose → remove()) ${after} differ.`);
    } catch (e) {
      fail(e);
    }
  });
  for (const r of radios) {
    r.addEventListener('change', () => {
      selected = SAMPLES.find((s) => s.id === (r.querySelector('input') as HTMLInputElement).value) ?? selected;
      update('');
    });
  }
  update('');
  return h(
    'section',
    { class: 'panel', 'aria-label': 'Diff' },
    h('h2', {}, 'Diff'),
    h(
      'div',
      { class: 'columns' },
      h(
        'div',
        { class: 'sidebar' },
        h('fieldset', {}, h('legend', {}, 'Sample library'), ...radios),
        description,
        code,
        h('div', { class: 'row' }, load, unload),
        usingBtn,
        status,
      ),
      h('div', { class: 'main' }, changesHost, legend(), detail, tableHost),
    ),
  );
}
