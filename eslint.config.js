// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'src/wasm/assembly/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // CommonJS configuration files of tools (dependency-cruiser).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/node.ts'],
    rules: {
      // The core runs in browsers: no Node globals or modules (Node entry points: src/cli, src/node.ts).
      'no-restricted-globals': ['error', 'process', 'Buffer', '__dirname', '__filename', 'require', 'global'],
      'no-restricted-imports': ['error', { patterns: ['node:*', 'fs', 'path', 'os', 'child_process'] }],
    },
  },
  {
    // No kernel converts storage to JS arrays (issue 13): the value-list helpers of rowMajor.ts stay where values
    // enter or leave. The files below still use them and are being moved onto storage arrays; the list only shrinks.
    files: ['src/kernels/**/*.ts'],
    ignores: ['src/kernels/rowMajor.ts', 'src/kernels/Convolution.ts', 'src/kernels/Pooling.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: ['node:*', 'fs', 'path', 'os', 'child_process'],
          paths: [{ name: './rowMajor.js', message: 'kernels work on storage arrays (dataView), not JS value lists (issue 13)' }],
        },
      ],
    },
  },
  {
    // No hand-written module over ~600 lines (generated files are exempt) ...
    files: ['src/**/*.ts'],
    ignores: ['src/generated/**'],
    rules: { 'max-lines': ['error', { max: 600 }] },
  },
  {
    // ... unless its PyTorch counterpart is that size, as each of these files' header says.
    files: [
      'src/iter/TensorIterator.ts',
      'src/kernels/BinaryOps.ts',
      'src/kernels/ReduceOps.ts',
      'src/kernels/UnaryOps.ts',
      'src/autograd/FunctionsManual.ts',
    ],
    rules: { 'max-lines': ['error', { max: 1400 }] },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-bitwise': 'off',
    },
  },
);
