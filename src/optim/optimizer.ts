// torch.optim.Optimizer: parameter groups, per-parameter state, zero_grad, state_dict/load_state_dict and
// add_param_group. Mirrors torch/optim/optimizer.py (PyTorch 2.13).

import { enableGrad, isGradEnabled, setGradEnabled } from '../autograd/grad_mode.js';
import { DeviceType, deviceTypeName } from '../c10/Device.js';
import { ScalarType, isFloatingType } from '../c10/ScalarType.js';
import { aliasCamelCase, parseKw, type WithCamelKeys } from '../c10/Kwargs.js';
import { getDefaultDtype } from '../tensor/defaults.js';
import { Tensor } from '../tensor/Tensor.js';

/** One parameter group as given to a constructor or `add_param_group`: `{ params, lr, ... }`. */
export interface ParamGroupInput {
  params: Tensor | Iterable<Tensor>;
  [option: string]: unknown;
}

/** What an optimiser takes: tensors (one group) or group objects. */
export type Params = Iterable<Tensor> | Iterable<ParamGroupInput>;

/** A parameter group held by an optimiser: its tensors and every option (the group's own, then defaults). */
export type ParamGroup<O extends object = Record<string, unknown>> = O & { params: Tensor[]; [option: string]: unknown };

/** The state of one parameter (`momentum_buffer`, `step`, `exp_avg`, ...). */
export type ParamState = Record<string, unknown>;

/**
 * `Optimizer.state_dict()`: PyTorch's layout. `state` maps a parameter's index (its position across all groups,
 * in order) to its state; each group holds its options and `params`, the indices of its parameters. See
 * Note [Optimizer state_dict layout].
 */
export interface OptimizerStateDict {
  state: Map<number, ParamState>;
  param_groups: Record<string, unknown>[];
}

/** What `load_state_dict` accepts: `state` as a Map or as an object with numeric-string keys (JSON). */
export interface OptimizerStateDictInput {
  state: Map<number, ParamState> | Record<string, ParamState>;
  param_groups: Record<string, unknown>[];
}

// Note [Optimizer state_dict layout]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's `{'state': {0: {...}, 1: {...}}, 'param_groups': [{'lr': ..., 'params': [0, 1]}]}` has int keys
// in `state`; JavaScript objects only have string keys, so `state` is a `Map<number, ParamState>` (a pickler
// writes its keys as ints, and nothing confuses them with the string keys of the inner dicts). Everything
// else is plain: a group is an object with PyTorch's keys in PyTorch's order (the group's options, then
// `params` last), Python tuples (Adam's `betas`) are arrays, None is null, and state values are the live
// tensors (as PyTorch returns them; clone to snapshot). `load_state_dict` also takes `state` as an object
// with numeric-string keys, as JSON gives it back.

/**
 * Python's `repr()` of a number (`1e-08`, `0.0001`, `1e+16`). Integral values print as Python ints: JavaScript
 * has one number type (Note [JavaScript numbers as Python scalars]).
 */
export function pyRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return String(x);
  const [mantissa, e] = x.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 16) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(x);
}

/** Python's `str()` of an option value, for the optimiser's repr. */
function pyStr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return pyRepr(v);
  if (Array.isArray(v)) return `(${v.map(pyStr).join(', ')}${v.length === 1 ? ',' : ''})`;
  return String(v);
}

/**
 * An optimiser's or scheduler's keyword arguments through the one keyword parser (`parseKw`, Note [Option
 * keys]): camelCase keys in PyTorch's spelling (`weightDecay` → `weight_decay`; `T_max` is PyTorch's own),
 * unknown keys with Python's `<Name>.__init__() got an unexpected keyword argument` text; `undefined` values
 * dropped, so the result can be assigned over the defaults.
 */
export function checkOptionKeys<T extends object>(name: string, options: T, defaults: object): T {
  const o = parseKw(`${name}.__init__`, options, Object.keys(defaults));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** `_get_scalar_dtype()`: the dtype of `step` counters (float64 when that is the default dtype). */
export function scalarDtype(): ScalarType {
  return getDefaultDtype() === ScalarType.Double ? ScalarType.Double : ScalarType.Float;
}

/** `_get_value(x)`: a tensor's number, or the number. */
export function getValue(x: unknown): number {
  return x instanceof Tensor ? Number(x.item()) : (x as number);
}

/** `_get_fused_kernels_supported_devices()` (torch/utils/_foreach_utils.py): the renamed PrivateUse1 backend last. */
export function fusedKernelsSupportedDevices(): string[] {
  return ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', deviceTypeName(DeviceType.PrivateUse1)];
}

/** `_get_foreach_kernels_supported_devices()`: CUDA-like devices and the PrivateUse1 backend, never the CPU. */
export function foreachKernelsSupportedDevices(): string[] {
  return ['cuda', 'xpu', 'mtia', deviceTypeName(DeviceType.PrivateUse1)];
}

/** `_device_dtype_check_for_fused(p)`: fused kernels take floating-point tensors of a supported device (PyTorch's text). */
export function deviceDtypeCheckForFused(p: Tensor): void {
  const devices = fusedKernelsSupportedDevices();
  if (!(devices.includes(deviceTypeName(p.device.type)) && p.isFloatingPoint())) {
    throw new Error(
      `\`fused=True\` requires all the params to be floating point Tensors of supported devices: [${devices.map((d) => `'${d}'`).join(', ')}] ` +
        `but ${String(p.dtype)} and ${deviceTypeName(p.device.type)}`,
    );
  }
}

// Note [foreach by default on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's `_default_to_fused_or_foreach(params, differentiable, use_fused=False)`: when the user leaves both
// `foreach` and `fused` as None, Adam / AdamW / SGD take the multi-tensor (`_foreach_*`) path if every parameter
// is on a device of `_get_foreach_kernels_supported_devices()` (cuda, xpu, mtia and the PrivateUse1 backend's
// name, so `webgpu` once src/webgpu renamed it), never the fused one (its "bake-in time"); CPU parameters keep
// the single-tensor path. A parameter without a gradient (`None` in PyTorch's list) does not count: the lists
// here hold only parameters with one.

/** `_default_to_fused_or_foreach(params, differentiable, use_fused)`: [fused, foreach] (Note [foreach by default on the webgpu device]). */
export function defaultToFusedOrForeach(params: readonly Tensor[], differentiable: boolean, useFused = false): [boolean, boolean] {
  if (differentiable) return [false, false];
  const fusedDevices = fusedKernelsSupportedDevices();
  const foreachDevices = foreachKernelsSupportedDevices();
  const fused = useFused && params.every((p) => fusedDevices.includes(deviceTypeName(p.device.type)) && p.isFloatingPoint());
  const foreach = !fused && params.every((p) => foreachDevices.includes(deviceTypeName(p.device.type)));
  return [fused, foreach];
}

/**
 * `Optimizer._group_tensors_by_device_and_dtype(lists)`: the lists split by the first list's dtype (every tensor
 * here is on one device), groups in order of first appearance, positions kept within a group.
 */
export function groupByDtype(lists: readonly Tensor[][]): Tensor[][][] {
  const first = lists[0] ?? [];
  const groups = new Map<ScalarType, number[]>();
  first.forEach((t, i) => {
    const g = groups.get(t.scalarType);
    if (g === undefined) groups.set(t.scalarType, [i]);
    else g.push(i);
  });
  return [...groups.values()].map((idx) => lists.map((l) => (l.length === 0 ? [] : idx.map((i) => l[i] as Tensor))));
}

/**
 * `torch.optim.Optimizer`: the base class of every optimiser.
 *
 * @example
 * ```ts
 * const opt = new optim.SGD(model.parameters(), { lr: 0.1, momentum: 0.9 });
 * opt.zero_grad(); loss.backward(); opt.step();
 * ```
 */
export abstract class Optimizer<O extends object = Record<string, unknown>> {
  /** The options a group gets when it does not set them. */
  readonly defaults: O;
  #paramGroups: ParamGroup<O>[] = [];
  /** Per-parameter state (PyTorch's `state`, a defaultdict(dict) keyed by the parameter). */
  state = new Map<Tensor, ParamState>();

  constructor(params: Params, defaults: O) {
    this.defaults = defaults;
    if (params instanceof Tensor) {
      throw new TypeError('params argument given to the optimizer should be an iterable of Tensors or dicts, but got torch.FloatTensor');
    }
    if (params === null || params === undefined || typeof (params as Iterable<unknown>)[Symbol.iterator] !== 'function') {
      throw new TypeError(`params argument given to the optimizer should be an iterable of Tensors or dicts, but got ${String(params)}`);
    }
    let groups = [...(params as Iterable<unknown>)];
    if (groups.length === 0) throw new Error('optimizer got an empty parameter list');
    if (groups[0] instanceof Tensor) groups = [{ params: groups }];
    for (const g of groups) this.add_param_group(g as ParamGroupInput);
  }

  // camelCase spellings, installed below by aliasCamelCase (Note [One naming rule]).
  declare zeroGrad: Optimizer<O>['zero_grad'];
  declare addParamGroup: Optimizer<O>['add_param_group'];
  declare stateDict: Optimizer<O>['state_dict'];
  declare loadStateDict: Optimizer<O>['load_state_dict'];
  declare paramGroups: Optimizer<O>['param_groups'];

  /** The parameter groups, in order (PyTorch's `param_groups`). */
  get param_groups(): ParamGroup<O>[] {
    return this.#paramGroups;
  }
  set param_groups(groups: ParamGroup<O>[]) {
    this.#paramGroups = groups;
  }

  /** The state of `p`, created empty on first use (PyTorch's defaultdict). */
  protected _state_of(p: Tensor): ParamState {
    let s = this.state.get(p);
    if (s === undefined) {
      s = {};
      this.state.set(p, s);
    }
    return s;
  }

  /** The update of every group, run as PyTorch's `step` runs it: the closure with grad on, the update with grad off. */
  protected _run_step<T>(closure: (() => T) | undefined, update: () => void): T | undefined {
    const loss = closure === undefined ? undefined : enableGrad(closure);
    const prev = isGradEnabled();
    setGradEnabled(Boolean((this.defaults as { differentiable?: boolean }).differentiable));
    try {
      update();
    } finally {
      setGradEnabled(prev);
    }
    return loss;
  }

  /** `step(closure=None)`: one optimisation step; returns what the closure returned. */
  abstract step<T = unknown>(closure?: () => T): T | undefined;

  /** `zero_grad(set_to_none=True)`: drops (or zeroes) every parameter's gradient. */
  zero_grad(options: WithCamelKeys<{ set_to_none?: boolean }> = {}): void {
    const setToNone = (parseKw('zero_grad', options, ['set_to_none']).set_to_none as boolean | undefined) ?? true;
    for (const group of this.param_groups) {
      for (const p of group.params) {
        const g = p.grad;
        if (g === null) continue;
        if (setToNone) {
          p.grad = null;
        } else {
          if (g.gradFn !== null) g.detach_();
          else g.requiresGrad_(false);
          g.zero_();
        }
      }
    }
  }

  /** `add_param_group(param_group)`: adds a group; its missing options come from the defaults. */
  add_param_group(paramGroup: ParamGroupInput): void {
    if (paramGroup === null || typeof paramGroup !== 'object' || paramGroup instanceof Tensor || Array.isArray(paramGroup)) {
      throw new TypeError(`param_group must be a dict, but got ${paramGroup instanceof Tensor ? 'Tensor' : typeof paramGroup}`);
    }
    const raw = paramGroup.params;
    if (raw instanceof Set) {
      throw new TypeError(
        'optimizer parameters need to be organized in ordered collections, but the ordering of tensors in sets will change between runs. Please use a list instead.',
      );
    }
    const params = raw instanceof Tensor ? [raw] : [...(raw as Iterable<unknown>)];
    for (const p of params) {
      if (!(p instanceof Tensor)) throw new TypeError(`optimizer can only optimize Tensors, but one of the params is ${typeof p}`);
      const differentiable = (this.defaults as { differentiable?: boolean }).differentiable === true;
      if (!differentiable && !(p.isLeaf || p.retainsGrad)) throw new Error("can't optimize a non-leaf Tensor");
    }
    const group: Record<string, unknown> = { ...paramGroup, params: params as Tensor[] };
    for (const [name, value] of Object.entries(this.defaults)) if (!(name in group)) group[name] = value;
    if (new Set(params).size !== params.length) {
      console.warn(
        'optimizer contains a parameter group with duplicate parameters; in future, this will cause an error; see github.com/pytorch/pytorch/issues/40967 for more information',
      );
    }
    const seen = new Set<Tensor>();
    for (const g of this.param_groups) for (const p of g.params) seen.add(p);
    if ((params as Tensor[]).some((p) => seen.has(p))) throw new Error('some parameters appear in more than one parameter group');
    this.param_groups.push(group as ParamGroup<O>);
  }

  /** `state_dict()`: the state and the groups, parameters replaced by indices (Note [Optimizer state_dict layout]). */
  state_dict(): OptimizerStateDict {
    const index = new Map<Tensor, number>();
    let start = 0;
    const paramGroups = this.param_groups.map((g) => {
      const packed: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(g)) if (k !== 'params') packed[k] = Array.isArray(v) ? [...(v as unknown[])] : v;
      g.params.forEach((p, i) => {
        if (!index.has(p)) index.set(p, start + i);
      });
      packed['params'] = g.params.map((p) => index.get(p) as number);
      start += g.params.length;
      return packed;
    });
    const state = new Map<number, ParamState>();
    for (const [p, s] of this.state) state.set(index.get(p) as number, s);
    return { state, param_groups: paramGroups };
  }

  /** `load_state_dict(state_dict)`: takes the state and group options of a `state_dict()` of the same layout. */
  load_state_dict(stateDict: OptimizerStateDictInput): void {
    const groups = this.param_groups;
    const saved = stateDict.param_groups;
    if (!Array.isArray(saved) || groups.length !== saved.length) {
      throw new Error('loaded state dict has a different number of parameter groups');
    }
    groups.forEach((g, i) => {
      const sp = (saved[i] as { params?: unknown }).params;
      if (!Array.isArray(sp) || sp.length !== g.params.length) {
        throw new Error("loaded state dict contains a parameter group that doesn't match the size of optimizer's group");
      }
    });
    const idMap = new Map<number, { param: Tensor; group: Record<string, unknown> }>();
    saved.forEach((sg, i) => {
      (sg['params'] as number[]).forEach((id, j) =>
        idMap.set(Number(id), { param: (groups[i] as ParamGroup<O>).params[j] as Tensor, group: sg }),
      );
    });
    const entries: [number, ParamState][] =
      stateDict.state instanceof Map ? [...stateDict.state] : Object.entries(stateDict.state).map(([k, v]) => [Number(k), v]);
    const state = new Map<Tensor, ParamState>();
    for (const [id, value] of entries) {
      const target = idMap.get(id);
      if (target === undefined) continue; // PyTorch keeps such entries under the int key; a Map keyed by Tensor cannot
      const cast: ParamState = {};
      for (const [k, v] of Object.entries(value)) cast[k] = castStateValue(target.param, v, k, target.group);
      state.set(target.param, cast);
    }
    const newGroups = saved.map((sg, i) => {
      const ng: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(sg)) ng[k] = Array.isArray(v) ? [...(v as unknown[])] : v;
      ng['params'] = (groups[i] as ParamGroup<O>).params;
      return ng as ParamGroup<O>;
    });
    this.state = state;
    this.param_groups = newGroups;
  }

  /** PyTorch's repr: `SGD (\nParameter Group 0\n    dampening: 0\n ...)`, options sorted by name. */
  toString(): string {
    let s = `${this.constructor.name} (`;
    this.param_groups.forEach((g, i) => {
      s += `\nParameter Group ${i}\n`;
      for (const k of Object.keys(g).sort()) if (k !== 'params') s += `    ${k}: ${pyStr(g[k])}\n`;
    });
    return s + ')';
  }
}

aliasCamelCase(Optimizer.prototype, {
  paramGroups: 'param_groups',
  zeroGrad: 'zero_grad',
  addParamGroup: 'add_param_group',
  stateDict: 'state_dict',
  loadStateDict: 'load_state_dict',
});

/** `_process_value_according_to_param_policy`: `step` stays as saved (fused / capturable: float32 on the parameter's device); other tensors take the parameter's device, and its dtype when floating. */
function castStateValue(param: Tensor, value: unknown, key: string, group: Record<string, unknown>): unknown {
  if (!(value instanceof Tensor)) return value;
  if (key === 'step') {
    // capturable / fused: a float32 counter on the parameter's device (as `_init_group` makes it).
    return group['capturable'] === true || group['fused'] === true ? value.to({ dtype: ScalarType.Float, device: param.device }) : value;
  }
  return isFloatingType(param.scalarType)
    ? value.to({ dtype: param.scalarType, device: param.device })
    : value.to({ device: param.device });
}

// Note [Single-tensor paths only]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Adamax, NAdam, RAdam, Adadelta, Rprop, ASGD, Adafactor and Muon run PyTorch's `_single_tensor_*` step, the
// path PyTorch itself takes for CPU tensors when `foreach` is None (`_default_to_fused_or_foreach` picks foreach
// only for CUDA-like devices). Their `_multi_tensor_*` twins compute the same values through `_foreach_*`
// operators with a different rounding here and there; rather than run the single-tensor path under
// `foreach=True` and call it foreach, they refuse it, as they refuse `capturable` and `differentiable`.

/** Refuses the options whose paths aten-ts does not have (Note [Single-tensor paths only]). */
export function refuseUnsupportedPaths(name: string, d: { foreach?: unknown; capturable?: unknown; differentiable?: unknown }): void {
  if (d.foreach === true) throw new Error(`${name}: foreach=True is not supported by aten-ts (the single-tensor path runs)`);
  if (d.capturable === true || d.differentiable === true) {
    throw new Error(`${name}: capturable and differentiable are not supported by aten-ts`);
  }
}
