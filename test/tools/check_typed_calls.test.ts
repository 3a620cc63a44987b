// tools/typed/scan.ts (npm run check:typed): nothing below the api floor calls the users' parsing Tensor methods.
// A small project shaped as the repository (the floors of the real .dependency-cruiser.cjs, a methods.ts with
// `TensorMethods`, Tensor merging them) with a reintroduced `grad.mul(0)` in src/kernels and src/autograd.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findParsingCalls, floorsBelowApi, type ParsingCall } from '../../tools/typed/scan.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const FILES: Record<string, string> = {
  'src/generated/methods.ts': [
    "import type { Tensor } from '../tensor/Tensor.js';",
    'export interface TensorMethods {',
    '  mul(other: Tensor | number): Tensor;',
    '  neg(): Tensor;',
    '  reshape(...shape: number[]): Tensor;',
    '}',
  ].join('\n'),
  'src/generated/TensorBody.ts': [
    "import type { Tensor } from '../tensor/Tensor.js';",
    'export declare function mul_Tensor(self: Tensor, other: Tensor): Tensor;',
    'export declare function neg(self: Tensor): Tensor;',
  ].join('\n'),
  'src/tensor/Tensor.ts': [
    "import type { TensorMethods } from '../generated/methods.js';",
    'export interface Tensor extends TensorMethods {}',
    'export class Tensor {',
    '  numel(): number { return 1; }',
    '  to(dtype: number): Tensor { return this; }',
    '  float(): Tensor { return this.to(6); }',
    '}',
  ].join('\n'),
  // Reintroduced parsing calls: a kernel, a formula helper (chained), a hand-parsed `to`.
  'src/kernels/SoftMax.ts': [
    "import type { Tensor } from '../tensor/Tensor.js';",
    'export const zeroGrad = (grad: Tensor): Tensor => grad.mul(0);',
  ].join('\n'),
  'src/autograd/FunctionsManual.ts': [
    "import type { Tensor } from '../tensor/Tensor.js';",
    'export const f = (self: Tensor): Tensor => self.neg().reshape(-1, 1);',
    'export const g = (x: Tensor): Tensor => x.to(7);',
  ].join('\n'),
  // Typed calls, a `mul` that is not Tensor's, Tensor's own non-parsing members: all fine.
  'src/autograd/GradientUtils.ts': [
    "import type { Tensor } from '../tensor/Tensor.js';",
    "import * as at from '../generated/TensorBody.js';",
    'const vec = { mul: (n: number): number => n * 2 };',
    'export const h = (grad: Tensor, other: Tensor): number => at.neg(at.mul_Tensor(grad, other)).numel() + vec.mul(2);',
  ].join('\n'),
  // The api floor and above parse users' arguments: allowed.
  'src/api/torch.ts': ["import type { Tensor } from '../tensor/Tensor.js';", 'export const mul = (a: Tensor): Tensor => a.mul(2);'].join(
    '\n',
  ),
  'src/nn/functional.ts': [
    "import type { Tensor } from '../tensor/Tensor.js';",
    'export const relu = (a: Tensor): Tensor => a.neg();',
  ].join('\n'),
};

let dir = '';
let calls: ParsingCall[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'check-typed-'));
  copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const program = ts.createProgram({
    rootNames: Object.keys(FILES).map((p) => join(dir, p)),
    options: {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
    },
  });
  calls = findParsingCalls(program, dir, floorsBelowApi(dir));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('check:typed', () => {
  it('reads the floors below the api from .dependency-cruiser.cjs', () => {
    const below = floorsBelowApi(dir);
    const matches = (p: string): boolean => below.some((r) => r.test(p));
    expect(matches('src/kernels/SoftMax.ts')).toBe(true);
    expect(matches('src/autograd/FunctionsManual.ts')).toBe(true);
    expect(matches('src/generated/autograd.ts')).toBe(true);
    expect(matches('src/generated/TensorBody.ts')).toBe(true);
    expect(matches('src/generated/methods.ts')).toBe(false);
    expect(matches('src/api/torch.ts')).toBe(false);
    expect(matches('src/nn/functional.ts')).toBe(false);
  });

  it('fails on a reintroduced grad.mul(0) in src/kernels and parsing calls in src/autograd', () => {
    expect(calls.map((c) => `${c.file}:${c.line} ${c.method}`)).toEqual([
      'src/kernels/SoftMax.ts:2 mul',
      'src/autograd/FunctionsManual.ts:2 reshape',
      'src/autograd/FunctionsManual.ts:2 neg',
      'src/autograd/FunctionsManual.ts:3 to',
    ]);
    expect(calls[0]!.text).toBe('export const zeroGrad = (grad: Tensor): Tensor => grad.mul(0);');
  });

  it('passes typed calls, other objects’ methods, the api floor and above, and Tensor’s own user methods', () => {
    const files = new Set(calls.map((c) => c.file));
    expect(files.has('src/autograd/GradientUtils.ts')).toBe(false);
    expect(files.has('src/api/torch.ts')).toBe(false);
    expect(files.has('src/nn/functional.ts')).toBe(false);
    expect(files.has('src/tensor/Tensor.ts')).toBe(false);
  });
});
