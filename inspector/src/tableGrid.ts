// The computed dispatch table drawn as two tables: the per-backend functionalities as a grid (rows:
// Dense … AutogradFunctionality, columns: the 16 backends) and the single-slot functionalities in priority
// order. Each cell is one runtime slot, coloured (and lettered, for readers who do not see colour) by where
// its kernel comes from, with the slot's `dumpComputedTable` line on hover and on keyboard focus.

import { dispatchKeyToString } from '../../src/c10/DispatchKey.js';
import { getDispatchTableIndexForDispatchKey } from '../../src/c10/DispatchKeySet.js';
import { toRuntimePerBackendFunctionalityKey } from '../../src/c10/DispatchKey.js';
import { gridNavigation, h } from './dom.js';
import { BACKENDS, PER_BACKEND_FUNCTIONALITIES, SINGLE_FUNCTIONALITIES, SOURCES, type Slot } from './model.js';

const MARK = new Map(SOURCES.map((s) => [s.source, s.mark]));
const SINGLE_COLUMNS = 6;

function slotCell(slot: Slot, changed: ReadonlySet<number>, label: string): HTMLTableCellElement {
  const isChanged = changed.has(slot.index);
  const text = `${slot.name} (slot ${slot.index}): ${slot.debug === '' ? 'missing' : slot.debug}`;
  return h(
    'td',
    {
      class: `slot src-${slot.source}${isChanged ? ' changed' : ''}`,
      tabindex: '-1',
      'data-nav': true,
      'data-key': slot.name,
      'data-index': slot.index,
      'data-source': slot.source,
      'data-debug': slot.debug,
      title: text,
      'aria-label': `${text}${isChanged ? ' (changed)' : ''}`,
    },
    h('span', { class: 'mark', 'aria-hidden': 'true' }, MARK.get(slot.source) ?? '?', isChanged ? '*' : ''),
    label === '' ? null : h('span', { class: 'slot-name', 'aria-hidden': 'true' }, label),
  );
}

/** The legend of slot colours. */
export function legend(): HTMLElement {
  return h(
    'ul',
    { class: 'legend', 'aria-label': 'Slot sources' },
    ...SOURCES.map((s) => h('li', {}, h('span', { class: `swatch src-${s.source}`, 'aria-hidden': 'true' }, s.mark), ' ', s.label)),
  );
}

/**
 * Draws `slots` (by table index). `changed` marks slots (Diff panel); `describe` receives the text of the
 * hovered or focused slot.
 */
export function renderTable(
  slots: readonly Slot[],
  caption: string,
  describe: (text: string) => void,
  changed: ReadonlySet<number> = new Set(),
): HTMLElement {
  const show = (cell: HTMLElement): void => describe(cell.getAttribute('title') ?? '');
  const grid = h(
    'table',
    { class: 'slots per-backend' },
    h('caption', {}, `${caption}: per-backend functionalities (row) × backend (column)`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'functionality'), ...BACKENDS.map((b) => h('th', { scope: 'col' }, b)))),
    h(
      'tbody',
      {},
      ...PER_BACKEND_FUNCTIONALITIES.map((f) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, dispatchKeyToString(f)),
          ...BACKENDS.map((_, b) => {
            const slot = slots[getDispatchTableIndexForDispatchKey(toRuntimePerBackendFunctionalityKey(f, b + 1))] as Slot;
            return slotCell(slot, changed, '');
          }),
        ),
      ),
    ),
  );
  const rows: HTMLTableRowElement[] = [];
  for (let i = 0; i < SINGLE_FUNCTIONALITIES.length; i += SINGLE_COLUMNS) {
    const keys = SINGLE_FUNCTIONALITIES.slice(i, i + SINGLE_COLUMNS);
    rows.push(
      h('tr', {}, ...keys.map((f) => slotCell(slots[getDispatchTableIndexForDispatchKey(f)] as Slot, changed, dispatchKeyToString(f)))),
    );
  }
  const single = h(
    'table',
    { class: 'slots single' },
    h('caption', {}, `${caption}: single-slot functionalities, in priority order (lowest first)`),
    h('tbody', {}, ...rows),
  );
  for (const t of [grid, single]) {
    gridNavigation(t, show);
    t.addEventListener('mouseover', (e) => {
      const cell = (e.target as HTMLElement).closest<HTMLElement>('td.slot');
      if (cell !== null) show(cell);
    });
  }
  return h('div', { class: 'table-view' }, grid, single);
}
