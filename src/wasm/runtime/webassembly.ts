// The part of the WebAssembly JavaScript API that src/wasm uses, typed here rather than taken from
// TypeScript's DOM lib: the Node-side tsconfigs (tests, tools, the published build) have no DOM lib, and
// the package's declarations should not require one. `WebAssembly` is read from globalThis, so an engine
// without it (some locked-down embeddings) gets a clear error, and the JS kernels still work.

/** A WebAssembly.Memory. */
export interface WasmMemoryObject {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  /** Grows by `deltaPages` pages; returns the old size in pages; throws a RangeError when it cannot. */
  grow(deltaPages: number): number;
}

/** A compiled WebAssembly.Module (opaque here). */
export type WasmModuleObject = object;

/** A WebAssembly.Instance. */
export interface WasmInstanceObject {
  readonly exports: Readonly<Record<string, unknown>>;
}

export type WasmImports = Record<string, Record<string, unknown>>;

export interface WasmImportDescriptor {
  readonly module: string;
  readonly name: string;
  readonly kind: string;
}

export interface WasmExportDescriptor {
  readonly name: string;
  readonly kind: string;
}

/** The WebAssembly namespace, as far as src/wasm uses it. */
export interface WebAssemblyApi {
  readonly Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => WasmMemoryObject;
  readonly Module: {
    new (bytes: Uint8Array<ArrayBuffer>): WasmModuleObject;
    imports(module: WasmModuleObject): WasmImportDescriptor[];
    exports(module: WasmModuleObject): WasmExportDescriptor[];
  };
  readonly Instance: new (module: WasmModuleObject, imports: WasmImports) => WasmInstanceObject;
  validate(bytes: Uint8Array<ArrayBuffer>): boolean;
  compile(bytes: Uint8Array<ArrayBuffer>): Promise<WasmModuleObject>;
  instantiate(module: WasmModuleObject, imports: WasmImports): Promise<WasmInstanceObject>;
}

const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;

/** The engine's WebAssembly namespace, or undefined if it has none. */
export function webAssemblyOrUndefined(): WebAssemblyApi | undefined {
  return api;
}

/** The engine's WebAssembly namespace; throws if it has none. */
export function webAssembly(): WebAssemblyApi {
  if (api === undefined) throw new Error('wasm: this JavaScript engine has no WebAssembly; use the JS kernels (setKernelBackend("js"))');
  return api;
}
