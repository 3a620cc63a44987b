// The Key sets panel: pick a tensor (device, requires grad, inference mode), see its key set, the
// thread-local included/excluded sets, the key set a call dispatches with drawn bit by bit, and the
// dispatch-table index computed step by step as c10/core/DispatchKeySet.h does.

import { Device, DeviceType } from '../../src/c10/Device.js';
import { autogradDispatchKeysetWithADInplaceOrView, type DispatchKeySet } from '../../src/c10/DispatchKeySet.js';
import { Dispatcher } from '../../src/dispatch/Dispatcher.js';
import { tlsLocalDispatchKeySet } from '../../src/dispatch/LocalDispatchKeySet.js';
import { keySetForDevice } from '../../src/tensor/TensorImpl.js';
import * as torch from '../../src/torch.js';
import { dispatchKeyToString } from '../../src/c10/DispatchKey.js';
import { h, setChildren } from './dom.js';
import { indexSteps, keySetBits } from './model.js';

const DEVICES = [
  { id: 'cpu', label: 'CPU', type: DeviceType.CPU },
  { id: 'meta', label: 'Meta', type: DeviceType.Meta },
  { id: 'privateuseone', label: 'PrivateUse1', type: DeviceType.PrivateUse1 },
] as const;

interface Picked {
  readonly device: (typeof DEVICES)[number];
  readonly requiresGrad: boolean;
  readonly inference: boolean;
}

interface Made {
  readonly code: string;
  readonly tensorKs: DispatchKeySet;
  readonly included: DispatchKeySet;
  readonly excluded: DispatchKeySet;
  readonly note: string;
}

/** Makes the tensor (inside inference mode when asked) and reads its key set and the TLS sets there. */
function make(p: Picked): Made {
  const opts = `{ device: '${p.device.id}'${p.requiresGrad ? ', requires_grad: true' : ''} }`;
  const code = p.inference ? `torch.inferenceMode(() => torch.empty([2, 3], ${opts}))` : `torch.empty([2, 3], ${opts})`;
  const build = (): Made => {
    const tls = tlsLocalDispatchKeySet();
    let tensorKs: DispatchKeySet;
    let note = '';
    try {
      const t = torch.empty([2, 3], { device: p.device.id, requires_grad: p.requiresGrad });
      tensorKs = t.keySet;
    } catch (e) {
      // No backend registered for the device: the key set TensorImpl would give a tensor there.
      const ks = keySetForDevice(new Device(p.device.type));
      tensorKs = p.inference ? ks.minus(autogradDispatchKeysetWithADInplaceOrView) : ks;
      note = `No kernels are registered for ${p.device.label} here (${(e as Error).message.split('\n')[0]}); the key set shown is the one TensorImpl gives a ${p.device.label} tensor.`;
    }
    return { code, tensorKs, included: tls.included, excluded: tls.excluded, note };
  };
  return p.inference ? torch.inferenceMode(build) : build();
}

export function keySetsPanel(): HTMLElement {
  const radios = DEVICES.map((d, i) =>
    h('label', {}, h('input', { type: 'radio', name: 'ks-device', value: d.id, id: `ks-device-${d.id}`, checked: i === 0 }), ` ${d.label}`),
  );
  const grad = h('input', { type: 'checkbox', id: 'ks-requires-grad' });
  const inference = h('input', { type: 'checkbox', id: 'ks-inference' });
  const op = h('input', { type: 'text', id: 'ks-op', value: 'aten::add.Tensor', spellcheck: 'false', autocomplete: 'off' });
  const out = h('div', { id: 'ks-output', 'aria-live': 'polite' });
  const controls = h(
    'form',
    { class: 'controls', 'aria-label': 'Tensor kind' },
    h('fieldset', {}, h('legend', {}, 'Device'), ...radios),
    h('fieldset', {}, h('legend', {}, 'Mode'), h('label', {}, grad, ' requires grad'), h('label', {}, inference, ' inference mode')),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Operator (for its fallthrough mask)'),
      h('label', { for: 'ks-op', class: 'sr-only' }, 'Operator'),
      op,
    ),
  );
  controls.addEventListener('submit', (e) => e.preventDefault());

  const update = (): void => {
    const id = (controls.querySelector('input[name="ks-device"]:checked') as HTMLInputElement | null)?.value ?? 'cpu';
    const device = DEVICES.find((d) => d.id === id) ?? DEVICES[0];
    const m = make({ device, requiresGrad: grad.checked, inference: inference.checked });
    const afterTls = m.tensorKs.or(m.included).minus(m.excluded);
    const handle = Dispatcher.singleton().findOp(op.value.trim());
    const mask = handle === null ? null : handle.entry.extractor.maskFor(afterTls);
    const callKs = mask === null ? afterTls : afterTls.and(mask);
    setChildren(out, ...render(m, afterTls, op.value.trim(), mask === null ? null : callKs, grad.checked));
  };
  controls.addEventListener('change', update);
  op.addEventListener('input', update);
  update();
  return h(
    'section',
    { class: 'panel', 'aria-label': 'Key sets' },
    h('h2', {}, 'Key sets'),
    h(
      'p',
      { class: 'hint' },
      'A call dispatches on the union of its tensor arguments’ key sets with the thread-local included set, minus the excluded set; ' +
        'the highest set bit picks the functionality, the highest backend bit under its mask picks the backend.',
    ),
    controls,
    out,
  );
}

function render(m: Made, afterTls: DispatchKeySet, opName: string, masked: DispatchKeySet | null, requiresGrad: boolean): Node[] {
  const callKs = masked ?? afterTls;
  const s = indexSteps(callKs);
  const dropped = [...afterTls].filter((k) => !callKs.has(k));
  const row = (label: string, id: string, value: string): Node[] => [h('dt', {}, label), h('dd', { id }, value)];
  const sets = h(
    'dl',
    { class: 'sets' },
    ...row('tensor', 'ks-code', m.code),
    ...row('tensor key set', 'ks-tensor', String(m.tensorKs)),
    ...row('TLS included', 'ks-included', String(m.included)),
    ...row('TLS excluded', 'ks-excluded', String(m.excluded)),
    ...row('(tensor ∪ included) − excluded', 'ks-after-tls', String(afterTls)),
    ...(masked === null
      ? row(`∩ ${opName}'s non-fallthrough mask`, 'ks-call', `unknown operator ${JSON.stringify(opName)}: no mask applied`)
      : row(
          `dispatch key set = that ∩ ${opName}'s non-fallthrough mask`,
          'ks-call',
          `${String(callKs)}  raw ${s.rawHex}${dropped.length > 0 ? `  (fallthrough keys dropped: ${dropped.map((k) => dispatchKeyToString(k)).join(', ')})` : ''}`,
        )),
  );
  const notes: Node[] = [];
  if (m.note !== '') notes.push(h('p', { class: 'note' }, m.note));
  if (requiresGrad) {
    notes.push(
      h(
        'p',
        { class: 'note' },
        'requires_grad does not change a key set: every tensor made outside inference mode carries the Autograd keys.',
      ),
    );
  }
  const bits = keySetBits(callKs);
  const highestBackend = s.perBackend && s.maskedBackendBits !== 0 ? s.backendIndex : -1;
  const rows: HTMLTableRowElement[] = [];
  for (let top = 63; top >= 0; top -= 8) {
    const cells = [];
    for (let bit = top; bit > top - 8; bit--) {
      const b = bits[bit]!;
      const marks = [
        bit === s.highestBit ? 'highest set bit' : '',
        bit === highestBackend ? 'highest backend bit under the mask' : '',
      ].filter((x) => x !== '');
      cells.push(
        h(
          'td',
          {
            class: `bit ${b.kind}${b.set ? ' on' : ''}${marks.length > 0 ? ' top' : ''}`,
            'data-bit': bit,
            'data-name': b.name,
            'data-set': b.set ? '1' : '0',
            title: `bit ${bit}: ${b.kind} ${b.name}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}`,
          },
          h('span', { class: 'bit-no' }, String(bit)),
          h('span', { class: 'bit-val' }, b.set ? '1' : '0'),
          h('span', { class: 'bit-name' }, b.name),
        ),
      );
    }
    rows.push(h('tr', {}, h('th', { scope: 'row' }, `bits ${top}–${top - 7}`), ...cells));
  }
  const table = h(
    'table',
    { class: 'bits', id: 'ks-bits' },
    h('caption', {}, 'The dispatch key set, 64 bits: 16 backend bits (0–15), 46 functionality bits (16–61), 2 unused'),
    h('tbody', {}, ...rows),
  );
  const step = (id: string, ...content: (string | Node)[]): HTMLLIElement => h('li', { id }, ...content);
  const num = (id: string, v: number | string): HTMLElement => h('strong', { id }, String(v));
  const steps = h(
    'ol',
    { class: 'steps', id: 'ks-steps' },
    step(
      'ks-step-bit',
      'Highest set bit: ',
      num('ks-highest-bit', s.highestBit),
      ' → functionality ',
      num('ks-functionality', s.functionalityName),
    ),
    step(
      'ks-step-offset',
      'Functionality offset (slots of every lower functionality): ',
      num('ks-offset', s.offset),
      `; backend mask 0x${s.mask.toString(16).padStart(4, '0')}`,
      s.perBackend ? ' (per-backend functionality: 16 slots)' : ' (one slot)',
    ),
    step(
      'ks-step-backend',
      'Backend index: ',
      num('ks-backend-index', s.backendIndex),
      s.perBackend ? ` — highest backend bit under the mask: ${s.backendName}` : ' — the mask is 0, backends do not count',
    ),
    step('ks-step-index', 'Table index = offset + backend index = ', `${s.offset} + ${s.backendIndex} = `, num('ks-index', s.index)),
    step(
      'ks-step-key',
      'Highest-priority key: ',
      num('ks-key', s.keyName),
      ` (getDispatchTableIndexForDispatchKeySet() = ${s.libraryIndex}${s.libraryIndex === s.index ? ', agrees' : ', DISAGREES'})`,
    ),
  );
  return [sets, ...notes, h('h3', {}, 'Dispatch-table index, step by step'), steps, table];
}
