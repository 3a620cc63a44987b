// The floors of aten-ts, checked on every `npm test` (`npm run check:layers`). Each floor imports only the
// floors below it, as PyTorch's layers do (c10 → ATen core → native kernels → registrations → autograd →
// torch). The rules apply to value imports: an `import type` upward is allowed, since it has no run-time
// effect and cannot form an initialisation cycle (Tensor's type names its methods and autograd node types).
// See the "Floors" section of README.md.

/** Bottom to top. A floor is a list of path patterns (relative to the repository root). */
const FLOORS = [
  ['c10', ['^src/c10/']],
  ['schema', ['^src/schema/']],
  ['dispatch', ['^src/dispatch/', '^src/generated/DispatchArity\\.ts$']],
  ['random', ['^src/random/']],
  ['operators', ['^src/generated/Operators\\.ts$']],
  ['tensor', ['^src/tensor/', '^src/generated/TensorBody\\.ts$']],
  ['iter', ['^src/iter/']],
  ['kernels', ['^src/kernels/', '^src/wasm/']],
  ['aten', ['^src/aten/', '^src/generated/Register[A-Za-z]*\\.ts$', '^src/generated/CPUFunctions\\.ts$']],
  ['autograd', ['^src/autograd/', '^src/generated/autograd\\.ts$']],
  ['api', ['^src/api/', '^src/generated/functions\\.ts$', '^src/generated/methods\\.ts$']],
  ['libraries', ['^src/(nn|optim|utils|serialization|library|modes|profiler)/']],
  // The public entry point and the `torch` namespace it exports gather every floor below (torch/__init__.py).
  ['package', ['^src/index\\.ts$', '^src/torch\\.ts$']],
  ['cli', ['^src/cli/', '^src/node\\.ts$']],
  // Devices built on the public API (an out-of-tree backend, as MPS is on Metal): they import the package by
  // its name ('aten-ts' → src/index.ts), and nothing below imports them (src/webgpu/README.md).
  ['devices', ['^src/webgpu/']],
];

const anyOf = (patterns) => `(${patterns.join('|')})`;
const VALUE = { dependencyTypesNot: ['type-only'] };

const floorRules = FLOORS.slice(0, -1).map(([name, patterns], i) => ({
  name: `floor-${name}`,
  comment: `${name} imports only floors below it (${
    FLOORS.slice(0, i)
      .map(([n]) => n)
      .join(', ') || 'nothing'
  }); value imports only`,
  severity: 'error',
  from: { path: anyOf(patterns) },
  to: { path: anyOf(FLOORS.slice(i + 1).flatMap(([, p]) => p)), ...VALUE },
}));

module.exports = {
  forbidden: [
    ...floorRules,
    {
      name: 'generated-file-without-floor',
      comment: 'every file of src/generated belongs to a floor: add it to FLOORS in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/generated/', pathNot: anyOf(FLOORS.flatMap(([, p]) => p).filter((p) => p.startsWith('^src/generated/'))) },
      to: {},
    },
    {
      name: 'codegen-imports-no-runtime',
      comment: 'the generator (src/codegen) imports only c10, schema and itself',
      severity: 'error',
      from: { path: '^src/codegen/' },
      to: { path: '^src/', pathNot: '^src/(codegen|c10|schema)/' },
    },
    {
      name: 'runtime-imports-no-generator',
      comment: 'nothing at run time imports the generator; only its Node driver does',
      severity: 'error',
      from: { pathNot: '^src/(codegen/|cli/codegen\\.ts$)' },
      to: { path: '^src/codegen/' },
    },
    {
      name: 'wasm-runtime-below-kernels',
      comment: 'src/wasm/runtime takes from src/wasm/kernels only the generated tables; the loader also binds the kernel table',
      severity: 'error',
      from: { path: '^src/wasm/runtime/', pathNot: '^src/wasm/runtime/Loader\\.ts$' },
      to: { path: '^src/wasm/kernels/', pathNot: '^src/wasm/kernels/generated/', ...VALUE },
    },
    {
      name: 'no-cycle-across-folders',
      comment: 'a value-import cycle stays inside one folder',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { circular: true, viaOnly: VALUE, via: { pathNot: '^src/$1/' } },
    },
    {
      name: 'core-is-browser-safe',
      comment: 'the core runs in browsers: Node built-ins only in the Node entry points (src/cli, src/node.ts)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli/|node\\.ts$)' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js'],
    },
  },
};
