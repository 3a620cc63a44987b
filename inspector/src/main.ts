// The dispatch inspector's entry: the page shell (header, tabs, four panels). Bundled with aten-ts into
// one classic script by inspector/build.ts. See inspector/README.md.

import * as aten from '../../src/index.js';
import { callsPanel } from './calls.js';
import { diffPanel } from './diff.js';
import { h, tablist } from './dom.js';
import { keySetsPanel } from './keysets.js';
import { operatorsPanel } from './operators.js';

function start(): void {
  const operators = operatorsPanel();
  const panels = [
    { id: 'operators', label: 'Operators', panel: operators.element },
    { id: 'keysets', label: 'Key sets', panel: keySetsPanel() },
    { id: 'calls', label: 'Calls', panel: callsPanel() },
    // A sample library changes the registry: the Operators panel re-reads it.
    { id: 'diff', label: 'Diff', panel: diffPanel(() => operators.refresh()) },
  ];
  const header = h(
    'header',
    {},
    h('h1', {}, 'aten-ts dispatch inspector'),
    h(
      'nav',
      { 'aria-label': 'Links' },
      h('a', { href: 'api/index.html' }, 'API reference'),
      ' · ',
      h('a', { href: 'https://pytorch.org/tutorials/advanced/dispatcher.html' }, 'PyTorch’s dispatcher'),
    ),
  );
  const main = h(
    'main',
    {},
    tablist('Inspector panels', panels, () => {}),
    ...panels.map((p) => p.panel),
  );
  document.body.replaceChildren(header, main);
  // For the devtools console (and the tests): the library the page runs.
  (globalThis as { aten?: typeof aten }).aten = aten;
  document.body.setAttribute('data-ready', 'true');
}

start();
