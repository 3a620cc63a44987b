// Small readers and one rewrite of the WebAssembly binary format (https://webassembly.github.io/spec/core/binary/):
// base64 decoding of the embedded module, the list of a module's sections, its memory import's limits, and
// the one-byte rewrite that makes that import shared (Note [One binary, shared or not]). Browser-safe.

/** The bytes of a base64 string (`atob` exists in browsers, workers and Node >= 16; no Buffer). */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Section ids of the binary format, by name (custom = 0, ..., data = 11, datacount = 12). */
export const SectionId = {
  custom: 0,
  type: 1,
  import: 2,
  function: 3,
  table: 4,
  memory: 5,
  global: 6,
  export: 7,
  start: 8,
  element: 9,
  code: 10,
  data: 11,
  datacount: 12,
} as const;

export interface Section {
  readonly id: number;
  /** Offset of the section's contents (after its id and size). */
  readonly start: number;
  readonly size: number;
}

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public pos: number,
  ) {}

  byte(): number {
    const b = this.bytes[this.pos++];
    if (b === undefined) throw new Error('wasm binary: unexpected end of input');
    return b;
  }

  /** An unsigned LEB128 of at most 32 bits. */
  u32(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
    }
    throw new Error('wasm binary: LEB128 longer than 5 bytes');
  }

  skipName(): void {
    this.pos += this.u32();
  }

  name(): string {
    const n = this.u32();
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(this.byte());
    return s;
  }
}

/** The sections of a module, in order. Throws on a bad header. */
export function sections(bytes: Uint8Array): Section[] {
  const magic = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  if (bytes.length < 8 || magic.some((b, i) => bytes[i] !== b)) throw new Error('wasm binary: bad magic or version');
  const r = new Reader(bytes, 8);
  const out: Section[] = [];
  while (r.pos < bytes.length) {
    const id = r.byte();
    const size = r.u32();
    out.push({ id, start: r.pos, size });
    r.pos += size;
  }
  if (r.pos !== bytes.length) throw new Error('wasm binary: last section runs past the end');
  return out;
}

export interface MemoryImport {
  readonly module: string;
  readonly name: string;
  /** Byte offset of the limits flag (0x00 min, 0x01 min+max, 0x03 shared min+max). */
  readonly flagOffset: number;
  readonly shared: boolean;
  readonly minimumPages: number;
  readonly maximumPages: number | null;
}

/** The module's imported memory, or null if it imports none. */
export function memoryImport(bytes: Uint8Array): MemoryImport | null {
  const imports = sections(bytes).find((s) => s.id === SectionId.import);
  if (imports === undefined) return null;
  const r = new Reader(bytes, imports.start);
  const count = r.u32();
  for (let i = 0; i < count; i++) {
    const module = r.name();
    const name = r.name();
    const kind = r.byte();
    if (kind === 0x00) {
      r.u32(); // function: type index
    } else if (kind === 0x01) {
      r.byte(); // table: reference type, then limits
      skipLimits(r);
    } else if (kind === 0x02) {
      const flagOffset = r.pos;
      const flag = r.byte();
      if (flag > 0x03 || flag === 0x02) throw new Error(`wasm binary: unsupported memory limits flag ${flag}`);
      const minimumPages = r.u32();
      const maximumPages = (flag & 1) !== 0 ? r.u32() : null;
      return { module, name, flagOffset, shared: (flag & 2) !== 0, minimumPages, maximumPages };
    } else if (kind === 0x03) {
      r.byte(); // global: value type, mutability
      r.byte();
    } else if (kind === 0x04) {
      r.byte(); // tag: attribute, type index
      r.u32();
    } else {
      throw new Error(`wasm binary: unknown import kind ${kind}`);
    }
  }
  return null;
}

function skipLimits(r: Reader): void {
  const flag = r.byte();
  r.u32();
  if ((flag & 1) !== 0) r.u32();
}

// Note [One binary, shared or not]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A module states in its memory import whether the memory is shared, and instantiation fails if the
// memory given differs (a shared WebAssembly.Memory for worker threads, a plain one otherwise). asc decides
// this at compile time (`--sharedMemory`, which also needs `--maximumMemory` and the threads feature), so
// one build cannot take both. Rather than commit and embed two builds of the same code, the build declares
// a non-shared import *with a maximum* (flag 0x01); the shared variant differs in that one flag byte (0x03,
// same size, same LEB128 limits after it), so `withSharedMemoryImport` copies the bytes and flips it. The
// kernels use no atomics, so the result validates wherever shared memory does (threads are on by default in
// Node >= 16 and current browsers; a browser page must be cross-origin isolated to create a shared Memory).

/** A copy of `bytes` whose memory import is shared (limits flag 0x01 -> 0x03). */
export function withSharedMemoryImport(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const mem = memoryImport(bytes);
  if (mem === null) throw new Error('wasm binary: the module imports no memory');
  if (mem.maximumPages === null) throw new Error('wasm binary: a shared memory import needs a maximum; build with --maximumMemory');
  const out = new Uint8Array(bytes);
  out[mem.flagOffset] = 0x03;
  return out;
}
