// What a tutorial port imports from `node:fs`, `node:os` and `node:path`, for the Quickstart page
// (tools/browser/tutorials.ts): run.ts bundles examples/tutorials/quickstart.ts unchanged and points those
// imports here. See Note [A tutorial's files in the page]. No imports: the page loads it transpiled.

// Note [A tutorial's files in the page]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A tutorial port is a Node script: it reads the shipped FashionMNIST subset with `readFileSync` and saves its
// model with `torch.save(sd, path)`. The page runs the same code: run.ts bundles the port with its `node:*`
// imports left external and pointed at this module, and 'aten-ts' at the page's dist bundle. The files live in
// one in-memory map, keyed by path: the page fetches the data files from the test server into it before it
// imports the port (a synchronous `readFileSync` cannot fetch), and installs the same map as the core's file
// system (`setSerializationFileSystem`) so `torch.save(sd, '/tmp/model.pth')` and `torch.load` of that path
// write and read it. A read of a file the page did not fetch throws ENOENT, as Node would.

/** The page's files: URL pathname or path -> bytes. */
export const files = new Map<string, Uint8Array>();

function key(path: string | URL): string {
  return typeof path === 'string' ? path : path.pathname;
}

/** `fs.readFileSync(path)` (bytes only: the ports read no text). */
export function readFileSync(path: string | URL): Uint8Array {
  const bytes = files.get(key(path));
  if (bytes === undefined) throw new Error(`ENOENT: no such file or directory, open '${key(path)}'`);
  return bytes;
}

/** `fs.writeFileSync(path, data)`. */
export function writeFileSync(path: string | URL, data: Uint8Array): void {
  files.set(key(path), data);
}

/** `os.tmpdir()`. */
export function tmpdir(): string {
  return '/tmp';
}

/** `path.join(...parts)` for POSIX paths (no `..` resolution: the ports join a folder and a name). */
export function join(...parts: string[]): string {
  return parts.join('/').replace(/\/{2,}/g, '/');
}
