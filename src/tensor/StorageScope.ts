// Scoped freeing of storage: `scope(fn)` frees the memory of every storage allocated while `fn` runs,
// except what `fn` returns and what escaped into long-lived places (a parameter's `.grad`). An
// optimisation, never a requirement (Note [Storage lifetime] in src/wasm/runtime/CPUAllocator.ts); TensorFlow.js's
// tf.tidy is the model. PyTorch needs none: reference counting frees tensors as they die.

import type { Storage } from './Storage.js';

/** The storages allocated in each open scope, innermost last. */
const scopes: Storage[][] = [];

/** Called by Storage's constructor: records the storage in the innermost open scope, if any. */
export function trackStorage(s: Storage): void {
  const n = scopes.length;
  if (n !== 0) (scopes[n - 1] as Storage[]).push(s);
}

/** Marks a storage as living beyond every scope (it is never freed by one): `.grad` accumulation calls it. */
export function escapeStorage(s: Storage): void {
  s.escaped = true;
}

/** Storages reachable from `value`: a tensor (anything with a `storage`), or arrays and plain objects of them. */
function collectStorages(value: unknown, into: Set<Storage>, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > 8) return;
  const storage = (value as { storage?: unknown }).storage;
  if (storage !== undefined && storage !== null && typeof storage === 'object' && 'nbytes' in storage) {
    into.add(storage as Storage);
    const grad = (value as { grad?: unknown }).grad;
    if (grad !== undefined) collectStorages(grad, into, depth + 1);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collectStorages(v, into, depth + 1);
  } else if (Object.getPrototypeOf(value) === Object.prototype) {
    for (const v of Object.values(value as Record<string, unknown>)) collectStorages(v, into, depth + 1);
  }
}

/**
 * Runs `fn` and frees the storage of every tensor it allocated, except the tensors in its result (a tensor,
 * or arrays / plain objects holding tensors) and storages that escaped (gradients accumulated into `.grad`).
 * Kept storages belong to the enclosing scope, if any. A freed tensor throws when read. Synchronous `fn`
 * only (an async function's allocations after its first `await` are not tracked).
 *
 * @example
 * const loss = torch.scope(() => {
 *   const h = torch.relu(x.matmul(w1));   // freed when the scope ends
 *   return h.matmul(w2).sum();            // kept
 * });
 */
export function scope<T>(fn: () => T): T {
  const mine: Storage[] = [];
  scopes.push(mine);
  let result: T;
  try {
    result = fn();
  } catch (e) {
    scopes.pop();
    handOver(mine, new Set());
    throw e;
  }
  scopes.pop();
  const keep = new Set<Storage>();
  collectStorages(result, keep);
  handOver(mine, keep);
  return result;
}

/** Opens a scope for library code (the autograd engine); close it with `closeScope`. */
export function openScope(): Storage[] {
  const mine: Storage[] = [];
  scopes.push(mine);
  return mine;
}

/**
 * Closes the innermost scope, opened by `openScope`: with `free`, frees its storages except `keep` and
 * escaped ones; without, hands every storage to the enclosing scope (nothing is freed).
 */
export function closeScope(mine: Storage[], free: boolean, keep: ReadonlySet<Storage> = new Set()): void {
  if (scopes[scopes.length - 1] !== mine) throw new Error('closeScope: not the innermost open scope');
  scopes.pop();
  if (free) {
    handOver(mine, keep);
    return;
  }
  const outer = scopes.length === 0 ? null : (scopes[scopes.length - 1] as Storage[]);
  if (outer !== null) for (const st of mine) outer.push(st);
}

function handOver(mine: Storage[], keep: ReadonlySet<Storage>): void {
  const outer = scopes.length === 0 ? null : (scopes[scopes.length - 1] as Storage[]);
  for (const s of mine) {
    if (s.escaped) continue;
    if (keep.has(s)) {
      if (outer !== null) outer.push(s);
    } else {
      s.free();
    }
  }
}
