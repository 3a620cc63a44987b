// Small DOM helpers shared by the panels: element construction, the tablist (WAI-ARIA tabs pattern with
// roving tabindex and automatic activation) and arrow-key navigation over a table's focusable cells.

type Child = Node | string | null | undefined | false;

/** `h('td', { class: 'slot', tabindex: '-1' }, 'CPU')`: an element with attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** Replaces an element's children. */
export function setChildren(el: Element, ...children: Child[]): void {
  el.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
}

export interface TabSpec {
  readonly id: string;
  readonly label: string;
  readonly panel: HTMLElement;
}

/**
 * The tabs pattern: a `role=tablist` of buttons, each `aria-controls` its `role=tabpanel`. Only the selected
 * tab is in the tab order; Left/Right/Home/End move between tabs and select them. The URL hash follows.
 */
export function tablist(label: string, tabs: readonly TabSpec[], onSelect: (id: string) => void): HTMLElement {
  const list = h('div', { role: 'tablist', 'aria-label': label, class: 'tabs' });
  const buttons = tabs.map((t) => {
    const b = h('button', { type: 'button', role: 'tab', id: `tab-${t.id}`, 'aria-controls': `panel-${t.id}` }, t.label);
    t.panel.id = `panel-${t.id}`;
    t.panel.setAttribute('role', 'tabpanel');
    t.panel.setAttribute('aria-labelledby', b.id);
    t.panel.tabIndex = 0;
    return b;
  });
  const select = (i: number, focus: boolean): void => {
    buttons.forEach((b, j) => {
      const on = i === j;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
      (tabs[j] as TabSpec).panel.hidden = !on;
    });
    if (focus) (buttons[i] as HTMLButtonElement).focus();
    const id = (tabs[i] as TabSpec).id;
    if (location.hash !== `#${id}`) history.replaceState(null, '', `#${id}`);
    onSelect(id);
  };
  buttons.forEach((b, i) => {
    b.addEventListener('click', () => select(i, false));
    b.addEventListener('keydown', (e) => {
      const n = buttons.length;
      const to =
        e.key === 'ArrowRight'
          ? (i + 1) % n
          : e.key === 'ArrowLeft'
            ? (i - 1 + n) % n
            : e.key === 'Home'
              ? 0
              : e.key === 'End'
                ? n - 1
                : -1;
      if (to < 0) return;
      e.preventDefault();
      select(to, true);
    });
    list.append(b);
  });
  const fromHash = tabs.findIndex((t) => `#${t.id}` === location.hash);
  select(fromHash < 0 ? 0 : fromHash, false);
  return list;
}

/**
 * Grid navigation over the cells of `table` that carry `data-nav`: one cell is in the tab order (roving
 * tabindex); arrows move by row and column of the table, Home/End to the row's ends.
 */
export function gridNavigation(table: HTMLTableElement, onFocusCell: (cell: HTMLElement) => void): void {
  const cells = (): HTMLElement[][] =>
    [...table.rows].map((r) => [...r.cells].filter((c) => c.hasAttribute('data-nav'))).filter((r) => r.length > 0) as HTMLElement[][];
  const first = cells()[0]?.[0];
  if (first !== undefined) first.tabIndex = 0;
  table.addEventListener('focusin', (e) => {
    const cell = e.target as HTMLElement;
    if (!cell.hasAttribute('data-nav')) return;
    for (const c of table.querySelectorAll<HTMLElement>('[data-nav]')) c.tabIndex = c === cell ? 0 : -1;
    onFocusCell(cell);
  });
  table.addEventListener('keydown', (e) => {
    const grid = cells();
    const cell = e.target as HTMLElement;
    const r = grid.findIndex((row) => row.includes(cell));
    if (r < 0) return;
    const row = grid[r] as HTMLElement[];
    const c = row.indexOf(cell);
    let target: HTMLElement | undefined;
    if (e.key === 'ArrowRight') target = row[c + 1];
    else if (e.key === 'ArrowLeft') target = row[c - 1];
    else if (e.key === 'ArrowDown') target = grid[r + 1]?.[Math.min(c, (grid[r + 1]?.length ?? 1) - 1)];
    else if (e.key === 'ArrowUp') target = grid[r - 1]?.[Math.min(c, (grid[r - 1]?.length ?? 1) - 1)];
    else if (e.key === 'Home') target = row[0];
    else if (e.key === 'End') target = row[row.length - 1];
    else return;
    e.preventDefault();
    target?.focus();
  });
}

/** Formats microseconds from milliseconds. */
export function micros(ms: number): string {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} µs`;
}
