// The Calls panel: type a snippet over `torch`, `x` and `y`, run it, and see the call tree (each
// call/redispatch with its key set, chosen key, slot, kernel and time) and the autograd nodes recorded.

import { h, micros, setChildren } from './dom.js';
import { flatten, traceSnippet, type TraceResult } from './trace.js';

const EXAMPLES = [
  'torch.add(x, y).sum().backward()',
  'x.mul(y).relu()',
  'torch.matmul(x, y).mean()',
  'torch.noGrad(() => torch.add(x, y))',
];

export function callsPanel(): HTMLElement {
  const code = h('textarea', { id: 'calls-code', rows: 3, spellcheck: 'false', 'aria-describedby': 'calls-help' });
  code.value = EXAMPLES[0] as string;
  const run = h('button', { type: 'submit', id: 'calls-run' }, 'Run');
  const examples = h(
    'div',
    { class: 'examples', role: 'group', 'aria-label': 'Examples' },
    ...EXAMPLES.map((ex) => {
      const b = h('button', { type: 'button', class: 'example' }, ex);
      b.addEventListener('click', () => {
        code.value = ex;
        code.focus();
      });
      return b;
    }),
  );
  const out = h('div', { id: 'calls-output', 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'controls', 'aria-label': 'Snippet' },
    h('label', { for: 'calls-code' }, 'Snippet'),
    code,
    h(
      'p',
      { id: 'calls-help', class: 'hint' },
      'JavaScript over torch, x = [[1, 2], [3, 4]] and y = [[0.5, -1], [2, 0.25]] (both requires_grad, fresh each run). Ctrl+Enter runs.',
    ),
    h('div', { class: 'row' }, run, examples),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    setChildren(out, ...render(traceSnippet(code.value)));
  });
  code.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
  return h('section', { class: 'panel', 'aria-label': 'Calls' }, h('h2', {}, 'Calls'), form, out);
}

function render(r: TraceResult): Node[] {
  const all = flatten(r.calls);
  const summary = h(
    'p',
    { id: 'calls-summary', class: r.error === null ? 'ok' : 'error' },
    r.error === null ? `Result: ${r.value}` : r.error,
    h('br'),
    `${all.length} dispatched calls (${r.calls.length} top-level), ${r.nodes.length} autograd nodes, `,
    h('span', { class: 'time' }, `${micros(r.totalMs)} in total`),
  );
  const rows = all.map((c) =>
    h(
      'tr',
      { 'data-op': c.op, 'data-key': c.key, 'data-kind': c.kind, 'data-depth': c.depth },
      h('th', { scope: 'row', class: 'op', style: `padding-left: ${0.4 + c.depth * 1.2}em` }, c.op),
      h('td', {}, c.kind),
      h('td', { class: 'key' }, c.key),
      h('td', { class: 'num' }, String(c.index)),
      h('td', { class: 'ks' }, c.keySet),
      h('td', { class: 'kernel' }, c.kernel),
      h('td', { class: 'num time' }, micros(c.totalMs)),
      h('td', { class: 'num time' }, micros(c.selfMs)),
    ),
  );
  const tree = h(
    'table',
    { id: 'calls-tree', class: 'data' },
    h('caption', {}, 'Call tree (nesting = calls made inside a kernel)'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['operator', 'kind', 'chosen key', 'slot', 'key set', 'kernel', 'total', 'self'].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h('tbody', {}, ...rows),
  );
  const nodes = h(
    'table',
    { id: 'calls-nodes', class: 'data' },
    h('caption', {}, 'Autograd nodes recorded (grad_fn graph of the tensors the snippet made)'),
    h('thead', {}, h('tr', {}, ...['sequence nr', 'node', 'next functions'].map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      ...r.nodes.map((n) =>
        h(
          'tr',
          { 'data-node': n.name },
          h('td', { class: 'num volatile' }, String(n.sequenceNr)),
          h('th', { scope: 'row' }, n.name),
          h('td', {}, n.next.join(', ')),
        ),
      ),
    ),
  );
  return [summary, tree, nodes];
}
