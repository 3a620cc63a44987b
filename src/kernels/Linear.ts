// torch.einsum as PyTorch's CompositeImplicitAutograd decomposition: permute / unsqueeze / sum / mul / bmm /
// view, so autograd comes from those operators. Mirrors aten/src/ATen/native/Linear.cpp (einsum,
// sumproduct_pair).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';

// Note [einsum's decomposition]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As Linear.cpp: labels are numbered A-Z then a-z; the output is the ellipsis dims then the labels seen once,
// in that order (implicit form), or the `->` list. Every operand is permuted to [output dims, contraction
// dims] with size-1 dims for labels it lacks (a repeated label takes the diagonal first), then operands are
// contracted left to right with sumproduct_pair (permute -> reshape -> bmm -> view -> permute, summed dims kept
// as size 1, a dim only one side has summed first), each step summing the dims no later operand has, and a
// final view drops the contraction dims, so the result's grad_fn is PyTorch's (ViewBackward0 after a
// contraction, MulBackward0 for an outer product, SumBackward1 for one operand). No
// contraction path: torch.einsum uses one only when opt_einsum is installed. A repeated label takes the
// diagonal and moves it to the first label's place, as Linear.cpp (`diagonal(0, d, j).movedim(-1, d)`).

const ELLIPSIS = -1;

function labelIndex(c: string): number {
  const code = c.charCodeAt(0);
  if (code >= 65 && code <= 90) return code - 65;
  if (code >= 97 && code <= 122) return code - 97 + 26;
  return -2;
}

function labelChar(l: number): string {
  return String.fromCharCode(l < 26 ? 65 + l : 97 + l - 26);
}

function sizesText(s: readonly number[]): string {
  return `[${s.join(', ')}]`;
}

/** `sumproduct_pair(left, right, sum_dims, keepdim=true)`: sum over `sumDims` of left * right via bmm. */
function sumproductPair(left: Tensor, right: Tensor, sumDims: number[]): Tensor {
  const a = aten();
  const dim = left.dim();
  const isSum = new Array<boolean>(dim).fill(false);
  for (const d of sumDims) isSum[d] = true;
  const lro: number[] = [];
  const lo: number[] = [];
  const ro: number[] = [];
  let [lroSize, loSize, roSize, sumSize] = [1, 1, 1, 1];
  for (let i = 0; i < dim; i++) {
    const sl = left.sizes[i] !== 1;
    const sr = right.sizes[i] !== 1;
    if (isSum[i]) {
      if (sl && sr) {
        if (left.sizes[i] !== right.sizes[i]) throw new Error('non-broadcast dimensions must match');
        sumSize *= left.sizes[i] as number;
      } else if (sl) left = a.sum_dim_IntList.call(left, [i], true, null);
      else if (sr) right = a.sum_dim_IntList.call(right, [i], true, null);
    } else if (sl && sr) {
      lro.push(i);
      lroSize *= left.sizes[i] as number;
    } else if (sl) {
      lo.push(i);
      loSize *= left.sizes[i] as number;
    } else {
      ro.push(i);
      roSize *= right.sizes[i] as number;
    }
  }
  const outSize = [
    ...lro.map((d) => left.sizes[d] as number),
    ...lo.map((d) => left.sizes[d] as number),
    ...sumDims.map(() => 1),
    ...ro.map((d) => right.sizes[d] as number),
  ];
  const lperm = [...lro, ...lo, ...sumDims, ...ro];
  const rperm = [...lro, ...sumDims, ...ro, ...lo];
  const operm = new Array<number>(outSize.length).fill(-1);
  lperm.forEach((d, i) => (operm[d] = i));
  const l = a.reshape.call(a.permute.call(left, lperm), [lroSize, loSize, sumSize]);
  const r = a.reshape.call(a.permute.call(right, rperm), [lroSize, sumSize, roSize]);
  return a.permute.call(a.view.call(a.bmm.call(l, r), outSize), operm);
}

/** `einsum(equation, tensors, *, path=None)`. See Note [einsum's decomposition]. */
export function einsum(_ks: DispatchKeySet, equation: string, operands: Tensor[], path?: number[] | null): Tensor {
  const a = aten();
  if (path !== null && path !== undefined) throw new Error('einsum(): a contraction path is not supported yet; pass path=None');
  if (operands.length === 0) throw new Error('einsum(): must provide at least one operand');
  const arrow = equation.indexOf('->');
  const lhs = arrow === -1 ? equation : equation.slice(0, arrow);
  // Parse the operands' subscripts.
  const opLabels: number[][] = [[]];
  let ellSeen = false;
  for (let i = 0; i < lhs.length; i++) {
    const c = lhs[i] as string;
    if (c === ' ') continue;
    if (c === '.') {
      if (ellSeen) throw new Error(`einsum(): found '.' for operand ${opLabels.length - 1} for which an ellipsis was already found`);
      if (lhs.slice(i, i + 3) !== '...')
        throw new Error(`einsum(): found '.' for operand ${opLabels.length - 1} that is not part of any ellipsis`);
      (opLabels[opLabels.length - 1] as number[]).push(ELLIPSIS);
      ellSeen = true;
      i += 2;
    } else if (c === ',') {
      if (opLabels.length === operands.length) throw new Error('einsum(): fewer operands were provided than specified in the equation');
      opLabels.push([]);
      ellSeen = false;
    } else {
      const l = labelIndex(c);
      if (l < 0) throw new Error(`einsum(): invalid subscript given at index ${i} in the equation string, subscripts must be in [a-zA-Z]`);
      (opLabels[opLabels.length - 1] as number[]).push(l);
    }
  }
  if (opLabels.length !== operands.length) {
    throw new Error(
      opLabels.length < operands.length
        ? 'einsum(): more operands were provided than specified in the equation'
        : 'einsum(): fewer operands were provided than specified in the equation',
    );
  }
  const labelCount = new Array<number>(52).fill(0);
  let ellNumDim = 0;
  opLabels.forEach((labels, i) => {
    const op = operands[i] as Tensor;
    const hasEll = labels.includes(ELLIPSIS);
    const nLabels = labels.length - (hasEll ? 1 : 0);
    if (hasEll) {
      if (nLabels > op.dim())
        throw new Error(
          `einsum(): the number of subscripts in the equation (${nLabels}) is more than the number of dimensions (${op.dim()}) for operand ${i}`,
        );
      ellNumDim = Math.max(ellNumDim, op.dim() - nLabels);
    } else if (nLabels !== op.dim()) {
      throw new Error(
        `einsum(): the number of subscripts in the equation (${nLabels}) does not match the number of dimensions (${op.dim()}) for operand ${i} and no ellipsis was given`,
      );
    }
    for (const l of labels) if (l !== ELLIPSIS) labelCount[l] = (labelCount[l] as number) + 1;
  });
  // The output: ellipsis dims, then output labels; contraction dims after out_size.
  const permIndexOf = new Array<number>(52).fill(-1);
  let permIndex = 0;
  let ellIndex = 0;
  let ellInOutput = false;
  if (arrow === -1) {
    ellInOutput = true;
    permIndex = ellNumDim;
    for (let l = 0; l < 52; l++) if (labelCount[l] === 1) permIndexOf[l] = permIndex++;
  } else {
    const rhs = equation.slice(arrow + 2);
    for (let i = 0; i < rhs.length; i++) {
      const c = rhs[i] as string;
      if (c === ' ') continue;
      if (c === '.') {
        if (ellInOutput) throw new Error("einsum(): found '.' for output but an ellipsis (...) was already found");
        if (rhs.slice(i, i + 3) !== '...') throw new Error("einsum(): found '.' for output that is not part of any ellipsis (...)");
        ellIndex = permIndex;
        permIndex += ellNumDim;
        ellInOutput = true;
        i += 2;
        continue;
      }
      const l = labelIndex(c);
      if (l < 0)
        throw new Error(
          `einsum(): invalid subscript given at index ${lhs.length + 2 + i} in the equation string, subscripts must be in [a-zA-Z]`,
        );
      if ((labelCount[l] as number) === 0)
        throw new Error(`einsum(): output subscript ${c} does not appear in the equation for any input operand`);
      if (permIndexOf[l] !== -1) throw new Error(`einsum(): output subscript ${c} appears more than once in the output`);
      permIndexOf[l] = permIndex++;
    }
  }
  const outSize = permIndex;
  if (!ellInOutput) {
    ellIndex = permIndex;
    permIndex += ellNumDim;
  }
  for (let l = 0; l < 52; l++) if ((labelCount[l] as number) > 0 && permIndexOf[l] === -1) permIndexOf[l] = permIndex++;

  // Permute every operand to the common layout (diagonals for repeated labels, size-1 dims for missing ones).
  const labelSize = new Array<number>(52).fill(-1);
  const ellSize = new Array<number>(ellNumDim).fill(-1);
  const permuted = operands.map((op0, i) => {
    let op = op0;
    const labels = opLabels[i] as number[];
    const perm = new Array<number>(permIndex).fill(-1);
    const labelDim = new Array<number>(52).fill(-1);
    let j = 0;
    for (const l of labels) {
      if (l === ELLIPSIS) {
        const missing = ellNumDim - (op0.dim() - labels.length + 1);
        for (let k = 0; k < missing; k++) op = a.unsqueeze.call(op, j);
        for (let k = 0; k < ellNumDim; k++) {
          const size = op.sizes[j] as number;
          const seen = ellSize[k] as number;
          if (seen !== -1 && seen !== size && seen !== 1 && size !== 1)
            throw new Error(
              `einsum(): dimension ${k} covered by ellipsis in operand ${i}has size ${size} which does not broadcast with previously seen ellipsis with size ${seen} for the respective dimension`,
            );
          if (seen === -1 || seen === 1) ellSize[k] = size;
          perm[ellIndex + k] = j++;
        }
      } else if (labelDim[l] !== -1) {
        const d = labelDim[l] as number;
        if (op.sizes[j] !== op.sizes[d])
          throw new Error(
            `einsum(): subscript ${labelChar(l)} is repeated for operand ${i} but the sizes don't match, ${op.sizes[j]} != ${op.sizes[d]}`,
          );
        // diagonal(0, d, j).movedim(-1, d): movedim is a permute (DiagonalBackward0, PermuteBackward0).
        op = a.diagonal.call(op, 0, d, j);
        const m = op.dim();
        op = a.permute.call(
          op,
          Array.from({ length: m }, (_, k) => (k < d ? k : k === d ? m - 1 : k - 1)),
        );
      } else {
        const size = op.sizes[j] as number;
        if (labelSize[l] !== -1 && labelSize[l] !== size && labelSize[l] !== 1 && size !== 1)
          throw new Error(
            `einsum(): subscript ${labelChar(l)} has size ${size} for operand ${i} which does not broadcast with previously seen size ${labelSize[l]}`,
          );
        if (labelSize[l] === -1 || labelSize[l] === 1) labelSize[l] = size;
        labelDim[l] = j;
        perm[permIndexOf[l] as number] = j++;
      }
    }
    for (let k = 0; k < permIndex; k++) {
      if (perm[k] === -1) {
        op = a.unsqueeze.call(op, -1);
        perm[k] = j++;
      }
    }
    return a.permute.call(op, perm);
  });
  // Broadcast check and the last operand with a dim of size != 1.
  const dimLastOp = new Array<number>(permIndex).fill(0);
  let hasZero = false;
  for (let d = 0; d < permIndex; d++) {
    let b = (permuted[0] as Tensor).sizes[d] as number;
    for (let i = 1; i < permuted.length; i++) {
      const s = (permuted[i] as Tensor).sizes[d] as number;
      if (b !== s && b !== 1 && s !== 1) {
        const shapes = operands.map((o, k) => ` ${sizesText(o.sizes)}->${sizesText((permuted[k] as Tensor).sizes)}`).join('');
        throw new Error(`einsum(): operands do not broadcast with remapped shapes (original->remapped):${shapes}`);
      }
      if (s !== 1) {
        b = s;
        dimLastOp[d] = i;
      }
    }
    hasZero ||= b === 0;
  }
  let result = permuted[0] as Tensor;
  if (hasZero) {
    const shape = Array.from({ length: outSize }, (_, d) => (permuted[dimLastOp[d] as number] as Tensor).sizes[d] as number);
    return a.zeros.call(shape, result.scalarType, null, result.device, null);
  }
  const contraction = Array.from({ length: permIndex - outSize }, (_, k) => outSize + k);
  if (permuted.length === 1) return contraction.length === 0 ? result : a.sum_dim_IntList.call(result, contraction, false, null);
  // Contract left to right keeping every dim (size 1 once summed); the first step also sums the dims only
  // the first operand has. See Note [einsum's decomposition].
  for (let i = 1; i < permuted.length; i++) {
    const sumDims = contraction.filter((d) => dimLastOp[d] === i || (i === 1 && dimLastOp[d] === 0));
    const operand = permuted[i] as Tensor;
    result = sumDims.length === 0 ? a.mul_Tensor.call(result, operand) : sumproductPair(result, operand, sumDims);
  }
  if (contraction.length > 0) result = a.view.call(result, result.sizes.slice(0, outSize));
  return result;
}
