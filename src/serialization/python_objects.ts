// How Python values of a checkpoint look in JavaScript, shared by the unpickler and the pickler.
// See Note [Python values in JavaScript].

// Note [Python values in JavaScript]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch.load returns, and torch.save takes:
//   None → null (undefined saves as None too); bool → boolean; str → string;
//   int → number, or bigint beyond ±2^53 (both save as int); float → number (a number saves as int when it is
//     a safe integer, as float otherwise: 1.0 loads as 1 and saves back as the int 1, which PyTorch code reads
//     the same way, since 1 == 1.0 in Python);
//   list → Array; tuple → Array marked as a tuple (isTuple; `tuple([...])` marks one for saving);
//   dict / OrderedDict → a plain object when every key is a string that JavaScript keeps in insertion order
//     (not an array index such as "0" or "12", not "__proto__"), else a Map (int keys, as in an optimizer's
//     `state`, stay numbers); either saves back as what it was loaded from (OrderedDict or dict), a new one as
//     dict; an OrderedDict's `_metadata` attribute (module versions) is kept as a non-enumerable
//     `_metadata` property and saved back;
//   torch.Tensor → Tensor; torch.nn.Parameter → Tensor marked as a parameter (isParameter), saved back as one.
// Objects shared in the file (tied weights, views of one storage) stay shared.

const TUPLES = new WeakSet<object>();
const ORDERED_DICTS = new WeakSet<object>();
const PARAMETERS = new WeakSet<object>();

/** Marks an array as a Python tuple for torch.save (a plain array saves as a list). Returns the array. */
export function tuple<T extends unknown[]>(items: T): T {
  TUPLES.add(items);
  return items;
}

/** True for arrays loaded from a Python tuple or marked with `tuple()`. */
export function isTuple(value: unknown): boolean {
  return typeof value === 'object' && value !== null && TUPLES.has(value);
}

/** Marks a dict (plain object or Map) to be saved as `collections.OrderedDict`. Returns it. */
export function markOrderedDict<T extends object>(dict: T): T {
  ORDERED_DICTS.add(dict);
  return dict;
}

/** True for dicts loaded from a `collections.OrderedDict` or marked with `markOrderedDict`. */
export function isOrderedDict(value: unknown): boolean {
  return typeof value === 'object' && value !== null && ORDERED_DICTS.has(value);
}

/** Marks a tensor loaded from (or to be saved as) a `torch.nn.Parameter`. */
export function markParameter<T extends object>(tensor: T): T {
  PARAMETERS.add(tensor);
  return tensor;
}

/** True for tensors loaded from a `torch.nn.Parameter` or marked with `markParameter`. */
export function isParameter(value: unknown): boolean {
  return typeof value === 'object' && value !== null && PARAMETERS.has(value);
}

/** True for `{}`-style objects (prototype Object.prototype or null): the ones torch.save writes as dicts. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A string key a plain object would move ahead of the others ("0", "17") or treat specially ("__proto__"). */
export function keyNeedsMap(key: string): boolean {
  return key === '__proto__' || (/^(0|[1-9][0-9]*)$/.test(key) && Number(key) < 4294967295);
}
