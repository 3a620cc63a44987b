// The Node entry point (package.json's "node" export condition): the library, plus what only Node can give
// it: worker threads, and a synchronous reclaimer for WebAssembly storage (Note [Storage lifetime], step 3). V8's `gc` and
// `FinalizationRegistry.prototype.cleanupSome` are switched on with flags (they change nothing else) and
// taken from a fresh context, where the flags apply. Browsers and bundlers use src/index.ts.

import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { setTraceFileWriter } from './profiler/index.js';
import { setSerializationFileSystem } from './serialization/index.js';
import { setThreadHost, wasmCPUAllocator, type SynchronousReclaimer } from './wasm/index.js';

export * from './index.js';

interface CleanupSomeRegistry extends FinalizationRegistry<number> {
  cleanupSome(): void;
}

function makeSynchronousReclaimer(): SynchronousReclaimer | null {
  setFlagsFromString('--expose-gc');
  setFlagsFromString('--harmony-weak-refs-with-cleanup-some');
  const realm = runInNewContext('({ gc, FinalizationRegistry })') as {
    gc?: () => void;
    FinalizationRegistry: new (cleanup: (ptr: number) => void) => CleanupSomeRegistry;
  };
  const gc = realm.gc;
  if (typeof gc !== 'function' || typeof realm.FinalizationRegistry.prototype.cleanupSome !== 'function') return null;
  return {
    Registry: realm.FinalizationRegistry,
    reclaim: (registry) => {
      gc();
      (registry as CleanupSomeRegistry).cleanupSome();
    },
  };
}

// Worker threads for intra-op parallelism (Note [Worker threads over linear memory]): unref'd, so a parked
// pool never keeps the process alive. Installed before anything makes linear memory, which is then shared.
setThreadHost({
  cores: availableParallelism(),
  canBlock: true,
  spawn: (source) => {
    const prelude =
      "const { parentPort } = require('node:worker_threads');" +
      'globalThis.self = { set onmessage(f) { if (f) parentPort.once("message", (data) => f({ data })); } };';
    // No inherited execArgv: `--input-type=module` would make the eval'd script a module (no `require`), and
    // loaders (tsx) would only slow the start. V8 flags are per process, so the workers see the same engine.
    const worker = new Worker(prelude + source, { eval: true, execArgv: [] });
    worker.unref();
    return worker;
  },
});

// Made when linear memory is first used (not at import: creating the context costs start-up time).
wasmCPUAllocator()?.setSynchronousReclaimer(makeSynchronousReclaimer);

// File paths for torch.save / torch.load and safetensors' save_file / load_file (the core works on bytes).
setSerializationFileSystem({ readFile: (path) => readFileSync(path), writeFile: (path, data) => writeFileSync(path, data) });

// torch.profiler's export_chrome_trace(path) writes through Node's file system.
setTraceFileWriter((path, text) => writeFileSync(path, text));
