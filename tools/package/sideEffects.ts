// Which built modules have import-time effects that other modules depend on, as a bundler must know through
// package.json's `sideEffects` (a module not listed there is dropped when none of its exports is used).
// A module's effect is a top-level statement that reaches outside it: a call of an imported function or of a
// global (`Dispatcher.addStaticInitializer(registerAten)`, `installVariableHooks()`), or an assignment to an
// imported binding or a global. Module-local set-up is no effect: TypeScript's enum IIFEs, filling a local
// table (`KEY_NAMES[k] = ...`), `Object.defineProperty(LocalClass.prototype, ...)`. A module with a bare
// import (`import './api/torch.js'`) of a module with effects has them too: a bundler keeps the bare import
// only when the importing module is itself kept for its effects.

import { dirname, join } from 'node:path';
import ts from 'typescript';

/** The identifier at the root of `a.b[c].d(...)`, or null (`this`, a call result, a literal). */
function rootName(e: ts.Expression): string | null {
  let cur: ts.Expression = e;
  for (;;) {
    if (ts.isIdentifier(cur)) return cur.text;
    if (ts.isPropertyAccessExpression(cur) || ts.isElementAccessExpression(cur)) cur = cur.expression;
    else if (ts.isParenthesizedExpression(cur) || ts.isNonNullExpression(cur)) cur = cur.expression;
    else return null;
  }
}

/** TypeScript's enum output: `(function (E) { ... })(E || (E = {}));`. */
function isEnumIife(e: ts.Expression): boolean {
  if (!ts.isCallExpression(e)) return false;
  const callee = ts.isParenthesizedExpression(e.expression) ? e.expression.expression : e.expression;
  return ts.isFunctionExpression(callee) && e.arguments.length === 1 && ts.isBinaryExpression(e.arguments[0] as ts.Expression);
}

/** The top-level statements of one ES module that reach outside it, as source text (empty: none). */
export function moduleEffects(fileName: string, source: string): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const local = new Set<string>();
  for (const st of sf.statements) {
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isEnumDeclaration(st)) && st.name) local.add(st.name.text);
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) local.add(d.name.text);
    }
  }
  const reachesOut = (e: ts.Expression): boolean => {
    if (isEnumIife(e)) return false;
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const root = rootName(e.left);
      return root === null || !local.has(root);
    }
    if (ts.isCallExpression(e)) {
      const root = rootName(e.expression);
      if (root !== null && local.has(root)) return false;
      // A global's method applied to a local (`Object.defineProperty(Tensor.prototype, ...)`) stays local.
      const first = e.arguments[0];
      if (root !== null && first !== undefined && /^(Object|Reflect)$/.test(root)) {
        const target = rootName(first);
        return target === null || !local.has(target);
      }
      return true;
    }
    return true;
  };
  const effects: string[] = [];
  for (const st of sf.statements) {
    if (ts.isExpressionStatement(st) && reachesOut(st.expression)) effects.push(st.getText().split('\n')[0] as string);
    if (ts.isClassDeclaration(st) && st.members.some((m) => ts.isClassStaticBlockDeclaration(m))) {
      effects.push(`class ${st.name?.text ?? '?'} { static { ... } }`);
    }
  }
  return effects;
}

/** The relative specifiers of a module's bare imports (`import './x.js'`). */
function bareImports(fileName: string, source: string): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
  return sf.statements
    .filter((st): st is ts.ImportDeclaration => ts.isImportDeclaration(st) && st.importClause === undefined)
    .map((st) => (st.moduleSpecifier as ts.StringLiteral).text)
    .filter((s) => s.startsWith('.'));
}

/**
 * The modules (paths, keys of `sources`) with import-time effects, each with why: its own effects, or a bare
 * import of such a module (to a fixed point).
 */
export function effectfulModules(sources: ReadonlyMap<string, string>): Map<string, string> {
  const why = new Map<string, string>();
  for (const [file, source] of sources) {
    const effects = moduleEffects(file, source);
    if (effects.length > 0) why.set(file, effects.join('; '));
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const [file, source] of sources) {
      if (why.has(file)) continue;
      const target = bareImports(file, source)
        .map((spec) => join(dirname(file), spec))
        .find((t) => why.has(t));
      if (target !== undefined) {
        why.set(file, `import '${target}'`);
        changed = true;
      }
    }
  }
  return why;
}
