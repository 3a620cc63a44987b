// The generated TypeScript of tools/wasm (the kernel tables, the pointwise twins) in the repository's style.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { format } from 'prettier';

/** `text` formatted with the repository's .prettierrc.json. */
export async function prettier(text: string, root: string): Promise<string> {
  const options = JSON.parse(readFileSync(resolve(root, '.prettierrc.json'), 'utf8')) as Record<string, unknown>;
  return format(text, { ...options, parser: 'typescript' });
}
