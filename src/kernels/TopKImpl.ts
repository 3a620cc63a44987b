// topk's CPU loop: per row, PyTorch's topk_impl_loop (aten/src/ATen/native/TopKImpl.h) over (value, index)
// pairs — std::partial_sort when k·64 ≤ n, else std::nth_element then std::sort of the first k−1 — with
// libstdc++'s algorithms (bits/stl_algo.h, bits/stl_heap.h) step for step, so that equal values come out
// with PyTorch's indices (Note [topk's tie order]).
//
// Note [topk's tie order]
// ~~~~~~~~~~~~~~~~~~~~~~~
// topk does not promise an order among equal values, but PyTorch's CPU result is deterministic: it is what
// libstdc++'s introselect / heap select / insertion sort leave. A stable sort (the sort kernel) gives other
// indices for ties (OpInfo's int64 samples have many). Reproducing the library's exact swaps is the only way to
// agree, so the functions below transcribe them; NaN counts as the largest value, as in PyTorch.

type Elem = [number, number];
type Comp = (x: Elem, y: Elem) => boolean;

function swap(a: Elem[], i: number, j: number): void {
  const t = a[i] as Elem;
  a[i] = a[j] as Elem;
  a[j] = t;
}

/** std::__insertion_sort over [first, last). */
function insertionSort(a: Elem[], first: number, last: number, comp: Comp): void {
  if (first === last) return;
  for (let i = first + 1; i < last; i++) {
    const val = a[i] as Elem;
    if (comp(val, a[first] as Elem)) {
      for (let j = i; j > first; j--) a[j] = a[j - 1] as Elem;
      a[first] = val;
    } else unguardedLinearInsert(a, i, comp);
  }
}

/** std::__unguarded_linear_insert. */
function unguardedLinearInsert(a: Elem[], last: number, comp: Comp): void {
  const val = a[last] as Elem;
  let next = last - 1;
  while (comp(val, a[next] as Elem)) {
    a[last] = a[next] as Elem;
    last = next;
    next--;
  }
  a[last] = val;
}

/** std::__move_median_to_first. */
function moveMedianToFirst(a: Elem[], result: number, x: number, y: number, z: number, comp: Comp): void {
  const A = a[x] as Elem;
  const B = a[y] as Elem;
  const C = a[z] as Elem;
  if (comp(A, B)) {
    if (comp(B, C)) swap(a, result, y);
    else if (comp(A, C)) swap(a, result, z);
    else swap(a, result, x);
  } else if (comp(A, C)) swap(a, result, x);
  else if (comp(B, C)) swap(a, result, z);
  else swap(a, result, y);
}

/** std::__unguarded_partition_pivot over [first, last). */
function partitionPivot(a: Elem[], first: number, last: number, comp: Comp): number {
  const mid = first + Math.floor((last - first) / 2);
  moveMedianToFirst(a, first, first + 1, mid, last - 1, comp);
  let lo = first + 1;
  let hi = last;
  for (;;) {
    while (comp(a[lo] as Elem, a[first] as Elem)) lo++;
    hi--;
    while (comp(a[first] as Elem, a[hi] as Elem)) hi--;
    if (!(lo < hi)) return lo;
    swap(a, lo, hi);
    lo++;
  }
}

/** std::__adjust_heap then std::__push_heap, on the heap at `first` of length `len`. */
function adjustHeap(a: Elem[], first: number, holeIndex: number, len: number, value: Elem, comp: Comp): void {
  const topIndex = holeIndex;
  let second = holeIndex;
  while (second < Math.floor((len - 1) / 2)) {
    second = 2 * (second + 1);
    if (comp(a[first + second] as Elem, a[first + second - 1] as Elem)) second--;
    a[first + holeIndex] = a[first + second] as Elem;
    holeIndex = second;
  }
  if ((len & 1) === 0 && second === Math.floor((len - 2) / 2)) {
    second = 2 * (second + 1);
    a[first + holeIndex] = a[first + second - 1] as Elem;
    holeIndex = second - 1;
  }
  let parent = Math.floor((holeIndex - 1) / 2);
  while (holeIndex > topIndex && comp(a[first + parent] as Elem, value)) {
    a[first + holeIndex] = a[first + parent] as Elem;
    holeIndex = parent;
    parent = Math.floor((holeIndex - 1) / 2);
  }
  a[first + holeIndex] = value;
}

function makeHeap(a: Elem[], first: number, last: number, comp: Comp): void {
  const len = last - first;
  if (len < 2) return;
  for (let parent = Math.floor((len - 2) / 2); ; parent--) {
    adjustHeap(a, first, parent, len, a[first + parent] as Elem, comp);
    if (parent === 0) return;
  }
}

/** std::__pop_heap(first, last, result). */
function popHeap(a: Elem[], first: number, last: number, result: number, comp: Comp): void {
  const value = a[result] as Elem;
  a[result] = a[first] as Elem;
  adjustHeap(a, first, 0, last - first, value, comp);
}

function heapSelect(a: Elem[], first: number, middle: number, last: number, comp: Comp): void {
  makeHeap(a, first, middle, comp);
  for (let i = middle; i < last; i++) if (comp(a[i] as Elem, a[first] as Elem)) popHeap(a, first, middle, i, comp);
}

/** std::__partial_sort: heap select, then sort_heap. */
function partialSort(a: Elem[], first: number, middle: number, last: number, comp: Comp): void {
  heapSelect(a, first, middle, last, comp);
  for (let end = middle; end - first > 1;) {
    end--;
    popHeap(a, first, end, end, comp);
  }
}

const lg = (n: number): number => 31 - Math.clz32(n);

/** std::nth_element (introselect). */
function nthElement(a: Elem[], first: number, nth: number, last: number, comp: Comp): void {
  if (first === last || nth === last) return;
  let depth = lg(last - first) * 2;
  while (last - first > 3) {
    if (depth === 0) {
      heapSelect(a, first, nth + 1, last, comp);
      swap(a, first, nth);
      return;
    }
    depth--;
    const cut = partitionPivot(a, first, last, comp);
    if (cut <= nth) first = cut;
    else last = cut;
  }
  insertionSort(a, first, last, comp);
}

const THRESHOLD = 16;

function introsortLoop(a: Elem[], first: number, last: number, depth: number, comp: Comp): void {
  while (last - first > THRESHOLD) {
    if (depth === 0) {
      partialSort(a, first, last, last, comp);
      return;
    }
    depth--;
    const cut = partitionPivot(a, first, last, comp);
    introsortLoop(a, cut, last, depth, comp);
    last = cut;
  }
}

/** std::sort: introsort, then the final insertion sort. */
function stdSort(a: Elem[], first: number, last: number, comp: Comp): void {
  if (first === last) return;
  introsortLoop(a, first, last, lg(last - first) * 2, comp);
  if (last - first > THRESHOLD) {
    insertionSort(a, first, first + THRESHOLD, comp);
    for (let i = first + THRESHOLD; i < last; i++) unguardedLinearInsert(a, i, comp);
  } else insertionSort(a, first, last, comp);
}

const greater: Comp = (x, y) => (Number.isNaN(x[0]) && !Number.isNaN(y[0])) || x[0] > y[0];
const less: Comp = (x, y) => (!Number.isNaN(x[0]) && Number.isNaN(y[0])) || x[0] < y[0];

/** One row of topk_impl_loop: the k (value, index) pairs PyTorch's CPU kernel writes, in its order. */
export function topkRow(values: readonly number[], k: number, largest: boolean, sorted: boolean): Elem[] {
  const n = values.length;
  const queue: Elem[] = values.map((v, j) => [v, j]);
  const comp = largest ? greater : less;
  if (k * 64 <= n) {
    partialSort(queue, 0, k, n, comp);
  } else {
    nthElement(queue, 0, k - 1, n, comp);
    if (sorted) stdSort(queue, 0, k - 1, comp);
  }
  return queue.slice(0, k);
}
