// Finds the calls of the users' parsing Tensor methods (src/generated/methods.ts, the Python-style argument
// parser) from code below the api floor. Kernels, derivative formulas and everything else below the api call
// the typed layer (src/generated/TensorBody.ts) instead: See Note [The typed Tensor layer] in
// src/codegen/dest/TensorBody.ts. The check is by type, not by name: a use of a member that TypeScript resolves
// to the `TensorMethods` interface of methods.ts, whatever the receiver is called.

import { createRequire } from 'node:module';
import { relative } from 'node:path';
import ts from 'typescript';

/** One use of a parsing method. */
export interface ParsingCall {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly method: string;
  readonly text: string;
}

interface FloorRule {
  readonly name: string;
  readonly from: { readonly path: string };
}

/**
 * The path patterns (relative to the repository root) of the floors below the api floor, read from the
 * floor rules of .dependency-cruiser.cjs (the one list of floors).
 */
export function floorsBelowApi(root: string): RegExp[] {
  const config = createRequire(import.meta.url)(`${root}/.dependency-cruiser.cjs`) as { forbidden: FloorRule[] };
  const rules = config.forbidden.filter((r) => r.name.startsWith('floor-'));
  const api = rules.findIndex((r) => r.name === 'floor-api');
  if (api < 0) throw new Error('.dependency-cruiser.cjs has no floor-api rule');
  return rules.slice(0, api).map((r) => new RegExp(r.from.path));
}

const PARSING_FILE = /\/src\/generated\/methods\.ts$/;
const TENSOR_FILE = /\/src\/tensor\/Tensor\.ts$/;
/**
 * The methods Tensor binds by hand that parse as the generated ones do (gen_python_functions.py's
 * SKIP_PYTHON_BINDINGS, bound in src/tensor/Tensor.ts): `to` takes a dtype, a device, a tensor or options.
 */
const HAND_PARSED: ReadonlySet<string> = new Set(['to']);

/** Whether `symbol` is a parsing method: a member of methods.ts's `TensorMethods`, or one Tensor parses by hand. */
export function isParsingMethod(symbol: ts.Symbol | undefined): boolean {
  const decls = symbol?.declarations;
  if (decls === undefined || decls.length === 0) return false;
  return decls.every((d) => {
    const file = d.getSourceFile().fileName.replace(/\\/g, '/');
    if (PARSING_FILE.test(file)) return ts.isInterfaceDeclaration(d.parent) && d.parent.name.text === 'TensorMethods';
    return (
      TENSOR_FILE.test(file) && ts.isClassDeclaration(d.parent) && d.parent.name?.text === 'Tensor' && HAND_PARSED.has(symbol!.getName())
    );
  });
}

/**
 * Tensor's own user-facing conveniences (`float(options)`, `cpu()`) are the users' layer living on the class:
 * `this.to(...)` inside src/tensor/Tensor.ts passes the user's arguments on to the parser.
 */
function ownUserMethod(node: ts.PropertyAccessExpression, rel: string): boolean {
  return rel === 'src/tensor/Tensor.ts' && node.expression.kind === ts.SyntaxKind.ThisKeyword;
}

/** The uses of parsing methods in the files of `program` whose path (relative to `root`) matches one of `below`. */
export function findParsingCalls(program: ts.Program, root: string, below: readonly RegExp[]): ParsingCall[] {
  const checker = program.getTypeChecker();
  const found: ParsingCall[] = [];
  for (const sf of program.getSourceFiles()) {
    const rel = relative(root, sf.fileName).replace(/\\/g, '/');
    if (rel.startsWith('..') || !below.some((p) => p.test(rel))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && isParsingMethod(checker.getSymbolAtLocation(node.name)) && !ownUserMethod(node, rel)) {
        const { line, character } = sf.getLineAndCharacterOfPosition(node.name.getStart(sf));
        const stmt = sf.text.split('\n')[line] ?? '';
        found.push({ file: rel, line: line + 1, column: character + 1, method: node.name.text, text: stmt.trim() });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

/** A program over the core (tsconfig.json at `root`). */
export function coreProgram(root: string, tsconfig = 'tsconfig.json'): ts.Program {
  const path = `${root}/${tsconfig}`;
  const read = ts.readConfigFile(path, (p) => ts.sys.readFile(p));
  if (read.error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, path);
  return ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
}
