// Keeping the hidden classes (V8 maps) of short-lived library objects alive. No PyTorch counterpart: C++
// objects have no hidden classes; this is the JavaScript engine's side of a per-call object's cost.

// Note [Hidden classes of short-lived objects]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// V8 gives each class a chain of hidden classes (maps), one per field its constructor defines, and holds every
// map after the first only weakly (from its parent's transitions). TensorIterators, their operand infos and
// configs live for one call: when a full collection finds none alive (the CPU allocator's synchronous reclaim,
// Note [Storage lifetime], runs one every few hundred MLP steps), their maps die, and every optimized function
// that checked them is thrown away ("marking dependent code for deoptimization, reason: weak objects" under
// `node --trace-deopt`: ~40 functions of the iterator and the kernels each time), runs unoptimized for a while
// and is compiled again on V8's background threads (bench/RESULTS.md: about 40% of the MLP step's
// CPU time went to those threads). One instance of each such class, made at load and kept for the life of the
// process, keeps its maps alive; construct it with the constructor the hot path uses, so that its fields are
// defined in the same order.

const anchors: object[] = [];

/** Keeps these objects, and so their hidden classes, alive (Note [Hidden classes of short-lived objects]). */
export function keepHiddenClassesAlive(...objects: object[]): void {
  anchors.push(...objects);
}
