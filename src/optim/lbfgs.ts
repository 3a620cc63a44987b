// torch.optim.LBFGS: limited-memory BFGS with an optional strong-Wolfe line search. Mirrors torch/optim/lbfgs.py
// (`_cubic_interpolate`, `_strong_wolfe`, `LBFGS.step`) op by op.

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { ScalarType, promoteTypes } from '../c10/ScalarType.js';
import { cat, tensor } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { Optimizer, checkOptionKeys, pyRepr, type Params } from './optimizer.js';

/** LBFGS's options, PyTorch's names and defaults (`max_eval` defaults to `max_iter * 5 // 4`). */
export interface LBFGSOptions {
  lr?: number;
  max_iter?: number;
  max_eval?: number | null;
  tolerance_grad?: number;
  tolerance_change?: number;
  history_size?: number;
  line_search_fn?: 'strong_wolfe' | null;
}

/** LBFGS's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type LBFGSDefaults = Omit<Required<LBFGSOptions>, 'max_eval'> & { max_eval: number };

// Note [LBFGS's 0-dim tensors]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// lbfgs.py mixes Python floats with 0-dim tensors: `ys = y.dot(s)`, `ro = 1.0 / ys`, `H_diag`, `al[i]`, `gtd`,
// and `t` once a tensor has touched it (`min(1.0, 1.0 / flat_grad.abs().sum()) * lr`, the line search's cubic
// interpolation). Their arithmetic rounds in the tensor's dtype (float32 when every parameter is float32) and
// they land in `state` as tensors. `Num` carries such a value with its dtype (null for a Python float): an
// operation's dtype is the tensors' promoted dtype (a Python float does not promote), its value rounded to it.

/** A Python float (`dtype` null) or a 0-dim tensor's value (Note [LBFGS's 0-dim tensors]). */
interface Num {
  v: number;
  dtype: ScalarType | null;
}

const py = (v: number): Num => ({ v, dtype: null });
const roundTo = (v: number, dtype: ScalarType | null): number => (dtype === ScalarType.Float ? Math.fround(v) : v);
function op(a: Num | number, b: Num | number, f: (x: number, y: number) => number): Num {
  const x = typeof a === 'number' ? py(a) : a;
  const y = typeof b === 'number' ? py(b) : b;
  const dtype = x.dtype === null ? y.dtype : y.dtype === null ? x.dtype : promoteTypes(x.dtype, y.dtype);
  return { v: roundTo(f(x.v, y.v), dtype), dtype };
}
const add = (a: Num | number, b: Num | number): Num => op(a, b, (x, y) => x + y);
const sub = (a: Num | number, b: Num | number): Num => op(a, b, (x, y) => x - y);
const mul = (a: Num | number, b: Num | number): Num => op(a, b, (x, y) => x * y);
const div = (a: Num | number, b: Num | number): Num => op(a, b, (x, y) => x / y);
const val = (a: Num | number): number => (typeof a === 'number' ? a : a.v);
/** A 0-dim tensor's value, as `Num`. */
const item = (t: Tensor): Num => ({ v: Number(t.item()), dtype: t.scalarType });
/** Python's `min(a, b)` / `max(a, b)`: the first unless the second is strictly smaller / larger. */
const pyMin = (a: Num, b: Num): Num => (b.v < a.v ? b : a);
const pyMax = (a: Num, b: Num): Num => (b.v > a.v ? b : a);
/** A state value as PyTorch stores it: a tensor for a 0-dim tensor, a number for a Python float. */
const stored = (a: Num | number | null): unknown =>
  a === null ? null : typeof a === 'number' || a.dtype === null ? val(a) : tensor(a.v, { dtype: a.dtype });
/** The reverse of `stored`, for a state that went through `state_dict`/`load_state_dict`. */
function loaded(x: unknown): Num | null {
  if (x === null || x === undefined) return null;
  if (typeof x === 'number') return py(x);
  return item(x as Tensor);
}

/** `_cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds)`: the minimiser of the cubic through two points. */
function cubicInterpolate(x1: Num, f1: Num, g1: Num, x2: Num, f2: Num, g2: Num, bounds?: [Num, Num]): Num {
  const [xminBound, xmaxBound] = bounds ?? (x1.v <= x2.v ? [x1, x2] : [x2, x1]);
  const d1 = sub(add(g1, g2), div(mul(3, sub(f1, f2)), sub(x1, x2)));
  const d2Square = sub(mul(d1, d1), mul(g1, g2));
  if (d2Square.v >= 0) {
    const d2: Num = { v: roundTo(Math.sqrt(d2Square.v), d2Square.dtype), dtype: d2Square.dtype };
    const minPos =
      x1.v <= x2.v
        ? sub(x2, mul(sub(x2, x1), div(sub(add(g2, d2), d1), add(sub(g2, g1), mul(2, d2)))))
        : sub(x1, mul(sub(x1, x2), div(sub(add(g1, d2), d1), add(sub(g1, g2), mul(2, d2)))));
    return pyMin(pyMax(minPos, xminBound), xmaxBound);
  }
  return div(add(xminBound, xmaxBound), 2.0);
}

type ObjFunc = (x: Tensor[], t: Num, d: Tensor) => [Num, Tensor];

/** `_strong_wolfe`: a line search satisfying the strong Wolfe conditions (minFunc's). */
function strongWolfe(
  objFunc: ObjFunc,
  x: Tensor[],
  t0: Num,
  d: Tensor,
  f: Num,
  g0: Tensor,
  gtd: Num,
  maxLs: number,
  c1 = 1e-4,
  c2 = 0.9,
  toleranceChange = 1e-9,
): [Num, Tensor, Num, number] {
  let t = t0;
  const dNorm = item(d.abs().max());
  const g = g0.clone();
  let [fNew, gNew] = objFunc(x, t, d);
  let lsFuncEvals = 1;
  let gtdNew = item(gNew.dot(d));
  let tPrev: Num = py(0);
  let fPrev = f;
  let gPrev = g;
  let gtdPrev = gtd;
  let done = false;
  let lsIter = 0;
  let bracket: Num[] = [];
  let bracketF: Num[] = [];
  let bracketG: Tensor[] = [];
  let bracketGtd: Num[] = [];
  while (lsIter < maxLs) {
    if (fNew.v > add(f, mul(mul(c1, t), gtd)).v || (lsIter > 1 && fNew.v >= fPrev.v)) {
      [bracket, bracketF, bracketG, bracketGtd] = [
        [tPrev, t],
        [fPrev, fNew],
        [gPrev, gNew.clone()],
        [gtdPrev, gtdNew],
      ];
      break;
    }
    if (Math.abs(gtdNew.v) <= mul(-c2, gtd).v) {
      [bracket, bracketF, bracketG] = [[t], [fNew], [gNew]];
      done = true;
      break;
    }
    if (gtdNew.v >= 0) {
      [bracket, bracketF, bracketG, bracketGtd] = [
        [tPrev, t],
        [fPrev, fNew],
        [gPrev, gNew.clone()],
        [gtdPrev, gtdNew],
      ];
      break;
    }
    const minStep = add(t, mul(0.01, sub(t, tPrev)));
    const maxStep = mul(t, 10);
    const tmp = t;
    t = cubicInterpolate(tPrev, fPrev, gtdPrev, t, fNew, gtdNew, [minStep, maxStep]);
    tPrev = tmp;
    fPrev = fNew;
    gPrev = gNew.clone();
    gtdPrev = gtdNew;
    [fNew, gNew] = objFunc(x, t, d);
    lsFuncEvals += 1;
    gtdNew = item(gNew.dot(d));
    lsIter += 1;
  }
  if (lsIter === maxLs)
    [bracket, bracketF, bracketG] = [
      [py(0), t],
      [f, fNew],
      [g, gNew],
    ];
  let insufProgress = false;
  let [lowPos, highPos] = (bracketF[0] as Num).v <= (bracketF[bracketF.length - 1] as Num).v ? [0, 1] : [1, 0];
  while (!done && lsIter < maxLs) {
    const [b0, b1] = bracket as [Num, Num];
    if (mul(Math.abs(sub(b1, b0).v), dNorm).v < toleranceChange) break;
    t = cubicInterpolate(b0, bracketF[0] as Num, bracketGtd[0] as Num, b1, bracketF[1] as Num, bracketGtd[1] as Num);
    const bMax = pyMax(b0, b1);
    const bMin = pyMin(b0, b1);
    const eps = mul(0.1, sub(bMax, bMin));
    if (pyMin(sub(bMax, t), sub(t, bMin)).v < eps.v) {
      if (insufProgress || t.v >= bMax.v || t.v <= bMin.v) {
        t = Math.abs(sub(t, bMax).v) < Math.abs(sub(t, bMin).v) ? sub(bMax, eps) : add(bMin, eps);
        insufProgress = false;
      } else {
        insufProgress = true;
      }
    } else {
      insufProgress = false;
    }
    [fNew, gNew] = objFunc(x, t, d);
    lsFuncEvals += 1;
    gtdNew = item(gNew.dot(d));
    lsIter += 1;
    if (fNew.v > add(f, mul(mul(c1, t), gtd)).v || fNew.v >= (bracketF[lowPos] as Num).v) {
      bracket[highPos] = t;
      bracketF[highPos] = fNew;
      bracketG[highPos] = gNew.clone();
      bracketGtd[highPos] = gtdNew;
      [lowPos, highPos] = (bracketF[0] as Num).v <= (bracketF[1] as Num).v ? [0, 1] : [1, 0];
    } else {
      if (Math.abs(gtdNew.v) <= mul(-c2, gtd).v) {
        done = true;
      } else if (mul(gtdNew, sub(bracket[highPos] as Num, bracket[lowPos] as Num)).v >= 0) {
        bracket[highPos] = bracket[lowPos] as Num;
        bracketF[highPos] = bracketF[lowPos] as Num;
        bracketG[highPos] = bracketG[lowPos] as Tensor;
        bracketGtd[highPos] = bracketGtd[lowPos] as Num;
      }
      bracket[lowPos] = t;
      bracketF[lowPos] = fNew;
      bracketG[lowPos] = gNew.clone();
      bracketGtd[lowPos] = gtdNew;
    }
  }
  return [bracketF[lowPos] as Num, bracketG[lowPos] as Tensor, bracket[lowPos] as Num, lsFuncEvals];
}

/**
 * `torch.optim.LBFGS(params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
 * history_size=100, line_search_fn=None)`. `step(closure)` needs the closure (it re-evaluates the loss).
 *
 * @example
 * ```ts
 * const opt = new optim.LBFGS(model.parameters(), { line_search_fn: 'strong_wolfe' });
 * opt.step(() => { opt.zero_grad(); const loss = lossFn(model.forward(x), y); loss.backward(); return loss; });
 * ```
 */
export class LBFGS extends Optimizer<LBFGSDefaults> {
  readonly #params: Tensor[];

  constructor(params: Params, options: WithCamelKeys<LBFGSOptions> = {}) {
    const o = checkOptionKeys('LBFGS', options, {
      lr: 1,
      max_iter: 20,
      max_eval: null,
      tolerance_grad: 1e-7,
      tolerance_change: 1e-9,
      history_size: 100,
      line_search_fn: null,
    });
    const lr = o.lr ?? 1;
    if (!(lr >= 0)) throw new Error(`Invalid learning rate: ${pyRepr(lr)}`);
    const maxIter = o.max_iter ?? 20;
    const defaults: LBFGSDefaults = {
      lr,
      max_iter: maxIter,
      max_eval: o.max_eval ?? Math.floor((maxIter * 5) / 4),
      tolerance_grad: o.tolerance_grad ?? 1e-7,
      tolerance_change: o.tolerance_change ?? 1e-9,
      history_size: o.history_size ?? 100,
      line_search_fn: o.line_search_fn ?? null,
    };
    super(params, defaults);
    if (this.param_groups.length !== 1) throw new Error("LBFGS doesn't support per-parameter options (parameter groups)");
    this.#params = (this.param_groups[0] as { params: Tensor[] }).params;
  }

  /** `_gather_flat_grad`: every gradient flattened into one vector (zeros for a missing one). */
  #gatherFlatGrad(): Tensor {
    return cat(this.#params.map((p) => (p.grad === null ? p.new_zeros([p.numel()]) : p.grad.reshape([-1]))));
  }

  /** `_add_grad(step_size, update)`: each parameter += step_size * its slice of `update`. */
  #addGrad(stepSize: Num | number, update: Tensor): void {
    let offset = 0;
    for (const p of this.#params) {
      const numel = p.numel();
      p.add_(update.narrow(0, offset, numel).view_as(p), { alpha: val(stepSize) });
      offset += numel;
    }
  }

  /** `_directional_evaluate`: the loss and gradient at x + t·d, the parameters restored to x. */
  #directionalEvaluate(closure: () => unknown, x: Tensor[], t: Num, d: Tensor): [Num, Tensor] {
    this.#addGrad(t, d);
    const loss = py(toFloat(closure()));
    const flatGrad = this.#gatherFlatGrad();
    this.#params.forEach((p, i) => p.copy_(x[i] as Tensor));
    return [loss, flatGrad];
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    if (closure === undefined) throw new TypeError("LBFGS.step() missing 1 required positional argument: 'closure'");
    let origLoss: T | undefined;
    this._run_step(undefined, () => {
      origLoss = this.#step(closure);
    });
    return origLoss;
  }

  #step<T>(closure0: () => T): T {
    const closure = (): T => this._run_step(closure0, () => undefined) as T;
    const group = this.param_groups[0] as LBFGSDefaults;
    const { lr, max_iter: maxIter, max_eval: maxEval, tolerance_grad: toleranceGrad } = group;
    const { tolerance_change: toleranceChange, line_search_fn: lineSearchFn, history_size: historySize } = group;
    const state = this._state_of(this.#params[0] as Tensor);
    state['func_evals'] ??= 0;
    state['n_iter'] ??= 0;
    const origLoss = closure();
    let loss = py(toFloat(origLoss));
    let currentEvals = 1;
    state['func_evals'] = (state['func_evals'] as number) + 1;
    let flatGrad = this.#gatherFlatGrad();
    let optCond = Number(flatGrad.abs().max().item()) <= toleranceGrad;
    if (optCond) return origLoss;
    let d = state['d'] as Tensor | undefined;
    let t: Num | null = loaded(state['t']);
    let oldDirs = state['old_dirs'] as Tensor[] | undefined;
    let oldStps = state['old_stps'] as Tensor[] | undefined;
    let ro = (state['ro'] as unknown[] | undefined)?.map((r) => loaded(r) as Num);
    let hDiag: Num | null = loaded(state['H_diag']);
    let prevFlatGrad = state['prev_flat_grad'] as Tensor | undefined;
    let prevLoss: Num | null = loaded(state['prev_loss']);
    let al = (state['al'] as unknown[] | undefined)?.map(loaded);
    let nIter = 0;
    while (nIter < maxIter) {
      nIter++;
      state['n_iter'] = (state['n_iter'] as number) + 1;
      if (state['n_iter'] === 1) {
        d = flatGrad.neg();
        oldDirs = [];
        oldStps = [];
        ro = [];
        hDiag = py(1);
      } else {
        const y = flatGrad.sub(prevFlatGrad as Tensor);
        const s = (d as Tensor).mul(val(t as Num));
        const ys = item(y.dot(s));
        if (ys.v > 1e-10) {
          if (oldDirs!.length === historySize) {
            oldDirs!.shift();
            oldStps!.shift();
            ro!.shift();
          }
          oldDirs!.push(y);
          oldStps!.push(s);
          ro!.push(div(1.0, ys));
          hDiag = div(ys, item(y.dot(y)));
        }
        const numOld = oldDirs!.length;
        if (al === undefined) {
          al = new Array<Num | null>(historySize).fill(null);
          state['al'] = al;
        }
        const q = flatGrad.neg();
        for (let i = numOld - 1; i >= 0; i--) {
          al[i] = mul(item((oldStps![i] as Tensor).dot(q)), ro![i] as Num);
          q.add_(oldDirs![i] as Tensor, { alpha: -(al[i] as Num).v });
        }
        const r = q.mul(val(hDiag as Num));
        d = r;
        for (let i = 0; i < numOld; i++) {
          const beI = mul(item((oldDirs![i] as Tensor).dot(r)), ro![i] as Num);
          r.add_(oldStps![i] as Tensor, { alpha: sub(al[i] as Num, beI).v });
        }
      }
      if (prevFlatGrad === undefined) prevFlatGrad = flatGrad.clone();
      else prevFlatGrad.copy_(flatGrad);
      prevLoss = loss;
      t = state['n_iter'] === 1 ? mul(pyMin(py(1.0), div(1.0, item(flatGrad.abs().sum()))), lr) : py(lr);
      const gtd = item(flatGrad.dot(d as Tensor));
      if (gtd.v > -toleranceChange) break;
      let lsFuncEvals = 0;
      if (lineSearchFn !== null) {
        if (lineSearchFn !== 'strong_wolfe') throw new Error("only 'strong_wolfe' is supported");
        const xInit = this.#params.map((p) => p.clone());
        let fl: Tensor;
        [loss, fl, t, lsFuncEvals] = strongWolfe(
          (x, tt, dd) => this.#directionalEvaluate(closure, x, tt, dd),
          xInit,
          t,
          d as Tensor,
          loss,
          flatGrad,
          gtd,
          maxEval - currentEvals,
        );
        flatGrad = fl;
        this.#addGrad(t, d as Tensor);
        optCond = Number(flatGrad.abs().max().item()) <= toleranceGrad;
      } else {
        this.#addGrad(t, d as Tensor);
        if (nIter !== maxIter) {
          loss = py(toFloat(closure()));
          flatGrad = this.#gatherFlatGrad();
          optCond = Number(flatGrad.abs().max().item()) <= toleranceGrad;
          lsFuncEvals = 1;
        }
      }
      currentEvals += lsFuncEvals;
      state['func_evals'] = (state['func_evals'] as number) + lsFuncEvals;
      if (nIter === maxIter) break;
      if (currentEvals >= maxEval) break;
      if (optCond) break;
      if (Number((d as Tensor).mul(val(t)).abs().max().item()) <= toleranceChange) break;
      if (Math.abs(sub(loss, prevLoss).v) < toleranceChange) break;
    }
    state['d'] = d;
    state['t'] = stored(t);
    state['old_dirs'] = oldDirs;
    state['old_stps'] = oldStps;
    state['ro'] = ro?.map(stored);
    state['H_diag'] = stored(hDiag);
    state['prev_flat_grad'] = prevFlatGrad;
    state['prev_loss'] = stored(prevLoss);
    if (al !== undefined) state['al'] = al.map(stored);
    return origLoss;
  }
}

/** Python's `float(loss)`: a one-element tensor's value, or the number. */
function toFloat(x: unknown): number {
  return typeof x === 'number' ? x : Number((x as Tensor).item());
}
