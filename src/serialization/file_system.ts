// File paths for torch.save / torch.load and safetensors' save_file / load_file. The core has no file
// system (it runs in browsers); src/node.ts installs Node's, as it installs worker threads.

/** What the path variants need: src/node.ts gives Node's `readFileSync` / `writeFileSync`. */
export interface SerializationFileSystem {
  /** The file's bytes (torch.load / load_file of a path); throws when there is none. */
  readFile(path: string): Uint8Array;
  /** Writes (creates or replaces) the file (torch.save / save_file to a path). */
  writeFile(path: string, data: Uint8Array): void;
}

let fileSystem: SerializationFileSystem | null = null;

/**
 * Lets torch.save / torch.load (and safetensors' save_file / load_file) take file paths; returns the previous one.
 * The Node entry installs Node's file system; in a browser, install your own (an in-memory map, the origin
 * private file system's synchronous handles in a worker), as tools/browser/tutorials.ts does for the Quickstart.
 */
export function setSerializationFileSystem(fs: SerializationFileSystem | null): SerializationFileSystem | null {
  const previous = fileSystem;
  fileSystem = fs;
  return previous;
}

/** The installed file system, or a clear error saying paths need Node.js. */
export function needFileSystem(path: string): SerializationFileSystem {
  if (fileSystem === null) {
    throw new Error(
      `a file path (${JSON.stringify(path)}) needs Node.js (aten-ts's Node entry point installs the file system); ` +
        'in browsers, save to and load from bytes (Uint8Array)',
    );
  }
  return fileSystem;
}
