// src/wasm's public surface: the runtime (runtime/: memory, allocator, thread pool, loading) and the kernel
// table (kernels/). The model is in src/wasm/README.md.
export * from './runtime/Loader.js';
