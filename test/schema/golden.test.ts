// Conformance against test/golden/schemas.json (tools/golden/gen_schemas.py, torch 2.13.0+cpu):
// every schema of native_functions.yaml, every other registered schema, hand-picked tricky
// ones, and invalid ones.
import { describe, expect, it } from 'vitest';
import { loadGolden } from '../golden.js';
import {
  AliasSymbolTable,
  SchemaParseError,
  TORCH_ALIAS_SYMBOL_IDS,
  TORCH_CUSTOM_CLASSES,
  TORCH_NEXT_SYMBOL_ID,
  formatValue,
  parseSchema,
  type AliasInfo,
  type Argument,
  type DefaultValue,
} from '../../src/schema/index.js';

type GDefault =
  | { none: true }
  | { bool: boolean }
  | { int: string }
  | { float: string }
  | { complex: [string, string] }
  | { str: string }
  | { list: GDefault[] }
  | { device: string };

interface GArg {
  name: string;
  type: string;
  fake?: string;
  N?: number;
  default?: GDefault;
  kwarg_only?: boolean;
  alias?: { before: string[]; after: string[]; write: boolean };
}

interface GValid {
  text: string;
  /** PyTorch's printed form, when it differs from `text`. */
  str?: string;
  origin: 'yaml' | 'registered' | 'tricky';
  fresh?: boolean;
  reparses?: false;
  name: string;
  overload: string;
  arguments: GArg[];
  returns: GArg[];
  is_vararg?: boolean;
  is_varret?: boolean;
  is_mutable?: boolean;
  kind?: string;
  signature?: string;
}

interface GInvalid {
  text: string;
  error: { type: string; message: string; full: string };
}

interface GMutated {
  text: string;
  str?: string;
  error?: GInvalid['error'];
}

interface Golden {
  counts: Record<string, number>;
  mutated: GMutated[];
  alias_symbols: { next_id: number; ids: Record<string, number> };
  custom_classes: string[];
  valid: GValid[];
  invalid: GInvalid[];
}

const golden = loadGolden<Golden>('schemas.json');

function defaultMatches(g: GDefault, v: DefaultValue): boolean {
  if ('none' in g) return v.tag === 'None';
  if ('bool' in g) return v.tag === 'Bool' && v.value === g.bool;
  if ('int' in g) return v.tag === 'Int' && v.value === BigInt(g.int);
  if ('float' in g) return v.tag === 'Double' && Object.is(v.value, Number(g.float));
  if ('complex' in g) {
    return v.tag === 'Complex' && Object.is(v.real, Number(g.complex[0])) && Object.is(v.imag, Number(g.complex[1]));
  }
  if ('str' in g) return v.tag === 'String' && v.value === g.str;
  if ('list' in g) {
    return v.tag === 'List' && v.items.length === g.list.length && g.list.every((x, i) => defaultMatches(x, v.items[i]!));
  }
  return v.tag === 'Device' && formatValue(v) === g.device;
}

function aliasMatches(g: GArg['alias'], a: AliasInfo | undefined): boolean {
  if (!g) return a === undefined;
  if (!a) return false;
  return (
    a.isWrite === g.write &&
    JSON.stringify([...a.beforeSets].sort()) === JSON.stringify(g.before) &&
    JSON.stringify([...a.afterSets].sort()) === JSON.stringify(g.after)
  );
}

function argProblems(g: GArg, a: Argument | undefined, isReturn: boolean): string[] {
  if (!a) return ['missing'];
  const p: string[] = [];
  if (a.name !== g.name) p.push(`name ${a.name} != ${g.name}`);
  if (a.type.annotationStr() !== g.type) p.push(`type ${a.type.annotationStr()} != ${g.type}`);
  const fake = g.fake ?? g.type;
  if (a.fakeType.annotationStr() !== fake) p.push(`fake type ${a.fakeType.annotationStr()} != ${fake}`);
  if (a.N !== g.N) p.push(`N ${a.N} != ${g.N}`);
  if (!isReturn) {
    if (g.default === undefined) {
      if (a.defaultValue !== undefined) p.push('unexpected default');
    } else if (a.defaultValue === undefined || !defaultMatches(g.default, a.defaultValue)) {
      p.push(`default ${a.defaultValue ? formatValue(a.defaultValue) : 'none'} != ${JSON.stringify(g.default)}`);
    }
  }
  if (a.kwargOnly !== (g.kwarg_only ?? false)) p.push('kwarg_only');
  if (!aliasMatches(g.alias, a.aliasInfo)) p.push(`alias ${a.aliasInfo?.toString()} != ${JSON.stringify(g.alias)}`);
  return p;
}

function check(entries: GValid[]): string[] {
  const failures: string[] = [];
  const shared = new AliasSymbolTable();
  for (const e of entries) {
    const symbols = e.fresh ? new AliasSymbolTable() : shared;
    let s;
    try {
      s = parseSchema(e.text, { aliasSymbols: symbols });
    } catch (err) {
      failures.push(`${JSON.stringify(e.text)}: threw ${(err as Error).message}`);
      continue;
    }
    const problems: string[] = [];
    const want = e.str ?? e.text;
    if (s.toString() !== want) problems.push(`printed ${JSON.stringify(s.toString())} != ${JSON.stringify(want)}`);
    if (s.name !== e.name) problems.push(`name ${s.name}`);
    if (s.overloadName !== e.overload) problems.push(`overload ${s.overloadName}`);
    if (s.arguments.length !== e.arguments.length) problems.push('argument count');
    if (s.returns.length !== e.returns.length) problems.push('return count');
    e.arguments.forEach((g, i) => argProblems(g, s.arguments[i], false).forEach((p) => problems.push(`arg ${i}: ${p}`)));
    e.returns.forEach((g, i) => argProblems(g, s.returns[i], true).forEach((p) => problems.push(`ret ${i}: ${p}`)));
    if (s.isVararg !== (e.is_vararg ?? false)) problems.push('is_vararg');
    if (s.isVarret !== (e.is_varret ?? false)) problems.push('is_varret');
    if (s.isMutable !== (e.is_mutable ?? false)) problems.push('is_mutable');
    if (e.kind !== undefined && s.kind() !== e.kind) problems.push(`kind ${s.kind()} != ${e.kind}`);
    if (e.signature !== undefined) {
      // torchgen keeps type names as written; c10 (and we) read DeviceIndex as int
      const want = e.signature.replace(/\bDeviceIndex\b/g, 'int');
      const sig = s.signature({ stripDefault: true }).toString();
      if (sig !== want) problems.push(`signature ${sig} != ${want}`);
    }
    if (problems.length) failures.push(`${JSON.stringify(e.text)}: ${problems.join('; ')}`);
  }
  return failures;
}

describe('golden schemas (torch 2.13.0+cpu)', () => {
  it('has the expected provenance and size', () => {
    expect(golden.counts.yaml).toBeGreaterThanOrEqual(2500);
    expect(golden.counts.invalid).toBeGreaterThanOrEqual(30);
    expect(golden.valid.filter((v) => v.origin === 'tricky').length).toBeGreaterThanOrEqual(50);
  });

  it('uses the same alias symbol ids and custom classes as the binary', () => {
    expect(golden.alias_symbols.ids).toEqual(TORCH_ALIAS_SYMBOL_IDS);
    expect(golden.alias_symbols.next_id).toBe(TORCH_NEXT_SYMBOL_ID);
    expect(golden.custom_classes).toEqual(TORCH_CUSTOM_CLASSES.map((c) => `__torch__.torch.classes.${c}`));
  });

  for (const origin of ['yaml', 'registered', 'tricky'] as const) {
    it(`parses and prints every ${origin} schema like PyTorch, with the same breakdown`, () => {
      const entries = golden.valid.filter((v) => v.origin === origin);
      expect(entries.length).toBeGreaterThan(0);
      expect(check(entries).slice(0, 20)).toEqual([]);
    });
  }

  it('round-trips: the printed form reparses to the same printed form (where PyTorch does)', () => {
    const failures: string[] = [];
    for (const e of golden.valid) {
      if (e.reparses === false || e.fresh) continue;
      const printed = e.str ?? e.text;
      try {
        const again = parseSchema(printed).toString();
        if (again !== printed) failures.push(`${printed} -> ${again}`);
      } catch (err) {
        failures.push(`${printed}: ${(err as Error).message}`);
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it('rejects every invalid schema with a SchemaParseError', () => {
    const failures: string[] = [];
    for (const e of golden.invalid) {
      try {
        parseSchema(e.text, { aliasSymbols: new AliasSymbolTable() });
        failures.push(`${JSON.stringify(e.text)}: parsed`);
      } catch (err) {
        if (!(err instanceof SchemaParseError)) {
          failures.push(`${JSON.stringify(e.text)}: threw ${(err as Error).name}: ${(err as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('agrees with PyTorch on 600 random mutations of real schemas', () => {
    const failures: string[] = [];
    const symbols = new AliasSymbolTable();
    for (const m of golden.mutated) {
      let printed: string | undefined;
      let message = '';
      try {
        printed = parseSchema(m.text, { aliasSymbols: symbols }).toString();
      } catch (err) {
        if (!(err instanceof SchemaParseError)) failures.push(`${JSON.stringify(m.text)}: threw ${String(err)}`);
        message = (err as Error).message;
      }
      if (m.str !== undefined) {
        if (printed !== m.str)
          failures.push(`${JSON.stringify(m.text)}: printed ${JSON.stringify(printed ?? message)}, want ${JSON.stringify(m.str)}`);
      } else if (printed !== undefined) {
        failures.push(`${JSON.stringify(m.text)}: parsed, PyTorch says ${m.error!.message}`);
      } else if (m.error!.type === 'RuntimeError' && !m.error!.full.includes('INTERNAL ASSERT')) {
        const ascii = [...m.text].every((c) => c.charCodeAt(0) < 0x80);
        if (ascii && message !== m.error!.full)
          failures.push(`${JSON.stringify(m.text)}: ${JSON.stringify(message)} != ${JSON.stringify(m.error!.full)}`);
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it("reproduces PyTorch's error messages", () => {
    const failures: string[] = [];
    for (const e of golden.invalid) {
      // INTERNAL ASSERTs and std::sto* exceptions carry no useful text; we word those ourselves
      if (e.error.type !== 'RuntimeError' || e.error.full.includes('INTERNAL ASSERT')) continue;
      let message = '';
      try {
        parseSchema(e.text, { aliasSymbols: new AliasSymbolTable() });
      } catch (err) {
        message = (err as Error).message;
      }
      // columns are bytes in PyTorch and UTF-16 units here: compare full text for ASCII input only
      const ascii = [...e.text].every((c) => c.charCodeAt(0) < 0x80);
      const expected = ascii ? e.error.full : e.error.message;
      const actual = ascii ? message : message.replace(/^\n/, '').split('\n')[0];
      if (actual !== expected)
        failures.push(`${JSON.stringify(e.text)}:\n  got  ${JSON.stringify(actual)}\n  want ${JSON.stringify(expected)}`);
    }
    expect(failures.slice(0, 20)).toEqual([]);
  });
});
