// The Operators panel: search every registered operator, see its schema and its computed dispatch table
// (the same data as `dumpComputedTable`), each slot coloured by where its kernel comes from.

import { Dispatcher } from '../../src/dispatch/Dispatcher.js';
import { h, setChildren } from './dom.js';
import { tableSlots } from './model.js';
import { legend, renderTable } from './tableGrid.js';

const DEFAULT_OP = 'aten::add.Tensor';
const MAX_LISTED = 400;

export interface OperatorsPanel {
  readonly element: HTMLElement;
  /** Shows an operator (and selects it in the list); false if unknown. */
  show(name: string): boolean;
  /** Re-reads the operator list and the shown table (after registrations changed). */
  refresh(): void;
}

export function operatorsPanel(): OperatorsPanel {
  const dispatcher = Dispatcher.singleton();
  const search = h('input', {
    type: 'search',
    id: 'op-search',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'add, conv, mylib::',
  });
  const list = h('select', { id: 'op-list', size: 12 });
  const count = h('p', { id: 'op-count', class: 'hint', 'aria-live': 'polite' });
  const title = h('h2', { id: 'op-title' });
  const schema = h('pre', { id: 'op-schema', class: 'schema' });
  const detail = h('p', { id: 'op-detail', class: 'detail', 'aria-live': 'polite' }, 'Hover or focus a slot to see its kernel.');
  const tableHost = h('div', { id: 'op-table' });
  let current = '';

  const fill = (): void => {
    const q = search.value.trim().toLowerCase();
    const all = dispatcher.getAllOpNames();
    const matching = q === '' ? all : all.filter((n) => n.toLowerCase().includes(q));
    setChildren(list, ...matching.slice(0, MAX_LISTED).map((n) => h('option', { value: n, selected: n === current }, n)));
    count.textContent =
      `${matching.length} of ${all.length} operators` +
      (matching.length > MAX_LISTED ? ` (first ${MAX_LISTED} listed; refine the search)` : '');
  };

  const show = (name: string): boolean => {
    const handle = dispatcher.findOp(name);
    const slots = tableSlots(name, dispatcher);
    if (handle === null || slots === null) return false;
    current = name;
    title.textContent = name;
    schema.textContent = handle.schema?.toString() ?? '(no schema: implementations only)';
    setChildren(
      tableHost,
      renderTable(slots, name, (t) => (detail.textContent = t)),
    );
    for (const o of list.options) o.selected = o.value === name;
    return true;
  };

  search.addEventListener('input', () => {
    fill();
    const exact = dispatcher.findOp(search.value.trim());
    if (exact !== null) show(search.value.trim());
  });
  search.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' && list.options.length > 0) {
      e.preventDefault();
      list.focus();
      if (list.selectedIndex < 0) list.selectedIndex = 0;
      show(list.value);
    }
  });
  list.addEventListener('change', () => show(list.value));

  const element = h(
    'section',
    { class: 'panel', 'aria-label': 'Operators' },
    h(
      'div',
      { class: 'columns' },
      h(
        'div',
        { class: 'sidebar' },
        h('label', { for: 'op-search' }, 'Search operators'),
        search,
        count,
        h('label', { for: 'op-list', class: 'sr-only' }, 'Operators'),
        list,
      ),
      h('div', { class: 'main' }, title, h('p', { class: 'label' }, 'Schema'), schema, legend(), detail, tableHost),
    ),
  );
  fill();
  show(DEFAULT_OP);
  return {
    element,
    show: (name) => {
      const ok = show(name);
      fill();
      return ok;
    },
    refresh: () => {
      fill();
      if (!show(current)) show(DEFAULT_OP);
    },
  };
}
