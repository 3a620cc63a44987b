// Node-only: reads Fashion-MNIST's IDX files from a folder into utils.data.FashionMNIST datasets (the
// browser-safe parsing lives in src/utils/data/fashion_mnist.ts). The default folder is the subset the
// repository ships (data/fashion-mnist-subset/, see its README).

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { FashionMNIST } from '../utils/data/fashion_mnist.js';

/** data/fashion-mnist-subset/ of this repository. */
export const FASHION_SUBSET_DIR = fileURLToPath(new URL('../../data/fashion-mnist-subset/', import.meta.url));

function readEither(dir: string, base: string): Uint8Array {
  for (const name of [`${base}.gz`, base]) {
    const path = join(dir, name);
    if (existsSync(path)) return new Uint8Array(readFileSync(path));
  }
  throw new Error(`Fashion-MNIST: neither ${base}.gz nor ${base} in ${dir} (see data/fashion-mnist-subset/README.md)`);
}

/**
 * `FashionMNIST(root, train=...)` over a folder holding `train-images-idx3-ubyte[.gz]`,
 * `train-labels-idx1-ubyte[.gz]`, `t10k-images-idx3-ubyte[.gz]` and `t10k-labels-idx1-ubyte[.gz]`.
 */
export function loadFashionMNIST(dir: string = FASHION_SUBSET_DIR, options: { train?: boolean } = {}): FashionMNIST {
  const prefix = (options.train ?? true) ? 'train' : 't10k';
  return new FashionMNIST({
    images: readEither(dir, `${prefix}-images-idx3-ubyte`),
    labels: readEither(dir, `${prefix}-labels-idx1-ubyte`),
  });
}
