// The dispatcher's error and warning texts against PyTorch 2.13's (test/golden/dispatch_errors.json, written by
// tools/golden/gen_dispatch_errors.py): the missing-kernel errors, the Meta fallback, the INTERNAL ASSERT
// texts, the override warning, parseDispatchKey, and dtype names as ScalarType schema defaults.
import { describe, expect, it } from 'vitest';
import { DispatchKey, DispatchKeySet, parseDispatchKey } from '../../src/c10/index.js';
import { Dispatcher, KernelFunction, Library, NotImplementedError } from '../../src/dispatch/index.js';
import { parseSchema } from '../../src/schema/index.js';
import { loadGolden } from '../golden.js';
import { FakeTensor, cpuTensor, parseTable } from './helpers.js';

interface ErrorText {
  type: string;
  text: string;
}
interface Missing {
  op: string;
  call?: string;
  type: string;
  head: string;
  table: [string, string, boolean][];
}
const G = loadGolden<{
  missing_kernel: Missing[];
  no_tensor_args: Missing;
  meta_fallback: ErrorText & { op: string };
  fallthrough_executed: ErrorText & { op: string };
  ambiguous_autogradother: { op: string; type: string; text: string; dump: string };
  override_warning: { category: string; text: string };
  parse_dispatch_key: (ErrorText & { name: string })[];
  scalar_type_defaults: { schema: string; printed?: string; error?: ErrorText }[];
}>('dispatch_errors.json');

function setup() {
  const warnings: string[] = [];
  const d = Dispatcher.withBuiltinFallbacks({ warn: (m) => warnings.push(m) });
  // Each registration carries PyTorch's debug string for `_dispatch_library(..., file, 0)`.
  const lib = (file: string) => {
    const l = new Library('FRAGMENT', 'err_ns', undefined, { dispatcher: d });
    const debug = `registered at ${file}:0`;
    return {
      def: (schema: string) => l.def(schema, undefined, { debug }),
      impl: (name: string, kernel: Parameters<Library['impl']>[1], key: string) => l.impl(name, kernel, key, { debug }),
    };
  };
  return { d, lib, warnings };
}

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

/** Python's exception type of a TS error: NotImplementedError, or RuntimeError for a plain Error. */
function pyType(e: Error): string {
  return e instanceof NotImplementedError ? 'NotImplementedError' : e.constructor === Error ? 'RuntimeError' : e.name;
}

function expectMissing(e: Error, g: Missing): void {
  expect(pyType(e)).toBe(g.type);
  const [head, rest] = [e.message.slice(0, e.message.indexOf('\n\n')), e.message.slice(e.message.indexOf('\n\n') + 2)];
  expect(head).toBe(g.head);
  // PyTorch's text ends with the computed table; aten-ts appends one hint after it.
  const table = rest.slice(0, rest.indexOf('\nTo fill this slot') + 1 || undefined);
  const rows = [...parseTable(table)].map(([k, l]) => [k, l.tag, l.fallthrough]);
  expect(rows).toEqual(g.table);
}

describe('missing kernels (OperatorEntry::reportError)', () => {
  const ops = () => {
    const s = setup();
    s.lib('def_err').def('only_meta(Tensor x) -> Tensor');
    s.lib('def_err').def('only_meta2.Tensor(Tensor x, Tensor y) -> Tensor');
    s.lib('def_err').def('noargs(int n) -> Tensor');
    s.lib('impl_only_meta').impl('only_meta', (_ks, x: unknown) => x, 'Meta');
    s.lib('impl_only_meta2.Tensor').impl('only_meta2.Tensor', (_ks, x: unknown) => x, 'Meta');
    s.lib('impl_noargs').impl('noargs', () => 1, 'CPU');
    return s;
  };

  it.each(G.missing_kernel.map((g) => [`${g.op} on ${g.call}`, g] as const))("equals PyTorch's text: %s", (_, g) => {
    const { d } = ops();
    const [name, overload] = g.op.split('.') as [string, string | undefined];
    const op = d.findSchemaOrThrow(name, overload ?? '');
    const args = g.op.endsWith('Tensor') ? [cpuTensor(), cpuTensor()] : [cpuTensor()];
    const e =
      g.call === 'quantized'
        ? thrown(() => op.redispatch(DispatchKeySet.of(DispatchKey.QuantizedCPU), ...args))
        : thrown(() => op.call(...args));
    expectMissing(e, g);
  });

  it("equals PyTorch's text without tensor arguments (Undefined)", () => {
    const { d } = ops();
    const e = thrown(() => d.findSchemaOrThrow('err_ns::noargs').call(1));
    expectMissing(e, G.no_tensor_args);
    expect(e.message).toContain('Available functions are [CPU, Meta, BackendSelect,');
  });

  it('keeps the table of the call after the text, then says which registration fills the slot', () => {
    const { d } = ops();
    const e = thrown(() => d.findSchemaOrThrow('err_ns::only_meta').call(cpuTensor()));
    expect(e.message).toContain('\n\nMeta: registered at impl_only_meta:0 [kernel]\n');
    expect(e.message).toMatch(/\nTo fill this slot, register a kernel for 'CPU', .* or a backend fallback for 'CPU'\.$/);
  });
});

describe('built-in fallbacks and internal asserts', () => {
  it("the Meta fallback raises NotImplementedError with PyTorch's PT2 text", () => {
    const { d, lib } = setup();
    lib('def_meta').def('cpu_only(Tensor x) -> Tensor');
    lib('impl_cpu_only').impl('cpu_only', (_ks, x: unknown) => x, 'CPU');
    const meta = new FakeTensor([DispatchKey.Meta, DispatchKey.ADInplaceOrView, DispatchKey.AutogradMeta]);
    const e = thrown(() => d.findSchemaOrThrow('err_ns::cpu_only').call(meta));
    expect(pyType(e)).toBe(G.meta_fallback.type);
    expect(e.message).toBe(G.meta_fallback.text);
  });

  it('a fallthrough reached through Undefined raises the INTERNAL ASSERT text', () => {
    const { d, lib } = setup();
    lib('def_ft').def('ft(int x) -> Tensor');
    lib('impl_ft').impl('ft', KernelFunction.fallthrough(), 'CompositeExplicitAutograd');
    const e = thrown(() => d.findSchemaOrThrow('err_ns::ft').call(1));
    expect(pyType(e)).toBe(G.fallthrough_executed.type);
    expect(e.message).toBe(G.fallthrough_executed.text);
  });

  it('the ambiguous AutogradOther kernel raises the INTERNAL ASSERT text with the canonical state', () => {
    const { d, lib } = setup();
    lib('def_amb').def('amb(Tensor x) -> Tensor');
    lib('impl_amb_cia').impl(
      'amb',
      KernelFunction.fromBoxed(() => undefined),
      'CompositeImplicitAutograd',
    );
    lib('impl_amb_mkldnn').impl(
      'amb',
      KernelFunction.fromBoxed(() => undefined),
      'MkldnnCPU',
    );
    const mkldnn = new FakeTensor([DispatchKey.MkldnnCPU, DispatchKey.ADInplaceOrView, DispatchKey.AutogradOther]);
    const e = thrown(() => d.findSchemaOrThrow('err_ns::amb').call(mkldnn));
    const g = G.ambiguous_autogradother;
    expect(pyType(e)).toBe(g.type);
    expect(e.message).toBe(`${g.text}\nCanonical state\n~~~~~~~~~~~\n${g.dump}\n\n`);
  });
});

describe('warnings and parsers', () => {
  it('the override warning has PyTorch layout, once per dispatcher', () => {
    const { lib, warnings } = setup();
    lib('def_ovr').def('ovr(Tensor x) -> Tensor');
    for (const [i, key] of [
      [1, 'CPU'],
      [2, 'CPU'],
      [3, 'AutogradCPU'],
      [4, 'AutogradCPU'],
    ] as const) {
      lib(`impl_ovr_${i}`).impl('ovr', (_ks, x: unknown) => x, key);
    }
    expect(warnings).toHaveLength(1);
    // PyTorch prints the C++ signature's debug as "previous kernel" (Python kernels: "no debug info");
    // aten-ts names the kernel actually overridden. See Note [Override warning] in src/dispatch/Dispatcher.ts.
    expect(warnings[0]).toBe(
      G.override_warning.text.replace('previous kernel: no debug info', 'previous kernel: registered at impl_ovr_1:0'),
    );
  });

  it.each(G.parse_dispatch_key.map((g) => [g.name, g] as const))("parseDispatchKey('%s') raises PyTorch's text", (name, g) => {
    const e = thrown(() => parseDispatchKey(name));
    expect(pyType(e)).toBe(g.type);
    expect(e.message).toBe(g.text);
    const { lib } = setup();
    lib('def_pk').def('pk(Tensor x) -> Tensor');
    expect(() => lib('impl_pk').impl('pk', (_ks, x: unknown) => x, name)).toThrow(g.text);
  });

  it.each(G.scalar_type_defaults.map((g) => [g.schema, g] as const))('parses %s as PyTorch does', (schema, g) => {
    if (g.printed !== undefined) {
      const s = parseSchema(schema);
      expect(s.toString()).toBe(g.printed);
      expect(parseSchema(s.toString()).toString()).toBe(g.printed);
    } else {
      const e = thrown(() => parseSchema(schema));
      expect(e.message).toBe(g.error!.text);
    }
  });
});
