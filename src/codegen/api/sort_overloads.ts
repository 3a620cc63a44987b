// The order in which a Python binding lists its overloads in "expected one of" texts. Mirrors
// sort_overloads in PyTorch's tools/autograd/gen_python_functions.py (and torchgen's argument_type_str for
// its sort key).
import { ListType, OptionalType, type Argument } from '../../schema/index.js';
import { type Binding, type Overload, isOptionalTensorListType, numOuts, pyArgName, pyDefault } from './python.js';

// Note [Overload order in error texts]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch lists a binding's signatures in "expected one of" in the order its parser tries them, which
// gen_python_functions.py's sort_overloads sets: first by torchgen's signature string (C++-ish type names:
// `Tensor input, Scalar other` < `Tensor input, Tensor other`), then a topological sort putting an overload
// after every overload of the same arity it is "smaller" than, argument by argument: Scalar < Tensor,
// Scalar? < Tensor?, int[] < int/int?, Tensor[] < any other list, SymInt[] < int[], int/SymInt < Tensor.
// So `torch.pow(2, 3)` lists (Tensor, Tensor), (Number self, Tensor), (Tensor, Number). aten-ts tries
// overloads in YAML order (its checks do not overlap the way Python's implicit conversions do); only the
// printed order follows PyTorch's.

/** torchgen's argument_type_str (the sort key's spelling of a type). */
function cppTypeStr(a: Argument): string {
  const opt = a.type instanceof OptionalType;
  const t = opt ? (a.type as OptionalType).elem : a.type;
  let s: string;
  if (t instanceof ListType) {
    const e = t.elem;
    if (e.kind === 'IntType') s = a.N !== undefined ? `IntArrayRef[${a.N}]` : 'IntArrayRef';
    else if (e.kind === 'SymIntType') s = a.N !== undefined ? `SymIntArrayRef[${a.N}]` : 'SymIntArrayRef';
    else if (e.kind === 'TensorType') s = 'TensorList';
    else if (isOptionalTensorListType(t)) s = 'c10::List<::std::optional<Tensor>>';
    else if (e.kind === 'FloatType') s = 'ArrayRef<double>';
    else s = `${e.str()}[]`;
  } else {
    const m: Record<string, string> = { IntType: 'int64_t', FloatType: 'double', StringType: 'c10::string_view' };
    s = m[t.kind] ?? t.str();
  }
  return opt ? `${s}?` : s;
}

function sortKey(b: string, ov: Overload): string {
  const arg = (a: Argument): string => {
    const base = `${cppTypeStr(a)} ${pyArgName(a)}`;
    return a.defaultValue !== undefined ? `${base}=${pyDefault(a.defaultValue)}` : base;
  };
  const parts = ov.positional.map(arg);
  const kw = ov.kwOnly.map(arg);
  if (ov.out) kw.push(numOuts(ov.out) > 1 ? `TensorList[${numOuts(ov.out)}] out=None` : 'Tensor out=None');
  if (kw.length > 0) parts.push('*', ...kw);
  return `${b}(${parts.join(', ')})`;
}

function schemaTypeStr(a: Argument): string {
  return a.N !== undefined && a.type instanceof ListType ? `${a.type.elem.str()}[${a.N}]` : a.type.str();
}

function isArgSmaller(t1: string, t2: string): boolean {
  return (
    (t1 === 'Scalar' && t2 === 'Tensor') ||
    (t1 === 'Scalar?' && t2 === 'Tensor?') ||
    (t1.includes('Dimname') && !t2.includes('Dimname')) ||
    (t1 === 'int[]' && (t2 === 'int' || t2 === 'int?')) ||
    (t1 === 'Tensor[]' && t2.includes('[]')) ||
    (t1 === 'SymInt[]' && t2 === 'int[]') ||
    ((t1 === 'SymInt' || t1 === 'int') && t2 === 'Tensor')
  );
}

/** Whether s1 < s2 in sort_overloads' partial order (s1 is tried after s2). */
function isSmaller(s1: Overload, s2: Overload): boolean {
  const a1 = [...s1.positional, ...s1.kwOnly].map(schemaTypeStr);
  const a2 = [...s2.positional, ...s2.kwOnly].map(schemaTypeStr);
  if (a1.length !== a2.length) return false;
  const equal = a1.every((t, i) => t === a2[i]);
  const smallerOrEqual = a1.every((t, i) => t === a2[i] || isArgSmaller(t, a2[i]!));
  return smallerOrEqual && !equal;
}

/** A binding's overloads in the order PyTorch prints them (Note [Overload order in error texts]). */
export function sortOverloads(b: Binding): Overload[] {
  const keyed = b.overloads.map((ov) => ({ ov, key: sortKey(b.name, ov) }));
  keyed.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  const ovs = keyed.map((k) => k.ov);
  const largerThan = new Map<number, Set<number>>();
  ovs.forEach((o1, i1) =>
    ovs.forEach((o2, i2) => {
      if (!isSmaller(o1, o2)) return;
      let set = largerThan.get(i1);
      if (!set) largerThan.set(i1, (set = new Set()));
      set.add(i2);
    }),
  );
  if (largerThan.size === 0) return ovs;
  const ids = ovs.map((_, i) => i).filter((i) => !largerThan.has(i));
  for (let idx = 0; idx < ovs.length && idx < ids.length; idx++) {
    const i = ids[idx]!;
    for (const j of [...largerThan.keys()].sort((x, y) => x - y)) {
      const larger = largerThan.get(j)!;
      larger.delete(i);
      if (larger.size === 0) {
        largerThan.delete(j);
        ids.push(j);
      }
    }
  }
  return ids.map((i) => ovs[i]!);
}
