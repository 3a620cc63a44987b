// Layout and MemoryFormat. Mirrors c10/core/Layout.h and c10/core/MemoryFormat.h.

/** PyTorch's Layout enum (values as in C++). */
export enum Layout {
  Strided = 0,
  Sparse = 1,
  SparseCsr = 2,
  Mkldnn = 3,
  SparseCsc = 4,
  SparseBsr = 5,
  SparseBsc = 6,
  Jagged = 7,
}

const LAYOUT_NAMES: readonly { cpp: string; python: string }[] = [
  { cpp: 'Strided', python: 'strided' },
  { cpp: 'Sparse', python: 'sparse_coo' },
  { cpp: 'SparseCsr', python: 'sparse_csr' },
  { cpp: 'Mkldnn', python: '_mkldnn' },
  { cpp: 'SparseCsc', python: 'sparse_csc' },
  { cpp: 'SparseBsr', python: 'sparse_bsr' },
  { cpp: 'SparseBsc', python: 'sparse_bsc' },
  { cpp: 'Jagged', python: 'jagged' },
];

/** `toString(Layout)` as C++ prints it: `Strided`, `Sparse`, `SparseCsr`, ... */
export function layoutToString(l: Layout): string {
  const n = LAYOUT_NAMES[l];
  if (n === undefined) throw new RangeError(`unknown Layout value ${String(l)}; expected 0..${LAYOUT_NAMES.length - 1}`);
  return n.cpp;
}

/** The Python name without `torch.`: `strided`, `sparse_coo`, ... */
export function layoutPythonName(l: Layout): string {
  layoutToString(l);
  return (LAYOUT_NAMES[l] as { python: string }).python;
}

/** Parses a Python (`sparse_coo`, `torch.sparse_coo`) or C++ (`Sparse`) layout name. */
export function parseLayout(name: string): Layout {
  const bare = name.startsWith('torch.') ? name.slice(6) : name;
  const i = LAYOUT_NAMES.findIndex((n) => n.python === bare || n.cpp === bare || (n.python === '_mkldnn' && bare === 'mkldnn'));
  if (i < 0) {
    throw new Error(`unknown layout '${name}'; expected one of ${LAYOUT_NAMES.map((n) => n.python).join(', ')}`);
  }
  return i as Layout;
}

/** PyTorch's MemoryFormat enum (values as in C++). */
export enum MemoryFormat {
  Contiguous = 0,
  Preserve = 1,
  ChannelsLast = 2,
  ChannelsLast3d = 3,
}

const MEMORY_FORMAT_NAMES: readonly { cpp: string; python: string }[] = [
  { cpp: 'Contiguous', python: 'contiguous_format' },
  { cpp: 'Preserve', python: 'preserve_format' },
  { cpp: 'ChannelsLast', python: 'channels_last' },
  { cpp: 'ChannelsLast3d', python: 'channels_last_3d' },
];

/** `toString(MemoryFormat)` as C++ prints it. */
export function memoryFormatToString(m: MemoryFormat): string {
  const n = MEMORY_FORMAT_NAMES[m];
  if (n === undefined) throw new RangeError(`unknown MemoryFormat value ${String(m)}; expected 0..3`);
  return n.cpp;
}

/** Parses `contiguous_format`, `torch.channels_last`, ... */
export function parseMemoryFormat(name: string): MemoryFormat {
  const bare = name.startsWith('torch.') ? name.slice(6) : name;
  const i = MEMORY_FORMAT_NAMES.findIndex((n) => n.python === bare || n.cpp === bare);
  if (i < 0) {
    throw new Error(`unknown memory format '${name}'; expected one of ${MEMORY_FORMAT_NAMES.map((n) => n.python).join(', ')}`);
  }
  return i as MemoryFormat;
}
