// `npm run check:docs`: every public export has a doc comment. Walks the package entry (src/index.ts) with
// the TypeScript checker: each export, and each export of the namespaces it exports (`torch`, `torch.nn`,
// `utils.data`...), recursively. An export is documented when its declaration (any overload, for a function)
// carries a `/** ... */` comment with text; for a re-exported namespace (`export * as nn from`), the module's
// own header comment does not count: the `export * as` line needs the doc comment. Members of classes and
// interfaces are not checked here (TypeDoc shows them undocumented). Prints every undocumented export and
// exits 1 if there is one. Other helpers' new exports are held to the same rule.

import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = join(ROOT, 'src/index.ts');

function program(): ts.Program {
  const configPath = join(ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return ts.createProgram({ rootNames: [ENTRY], options: parsed.options });
}

/** Whether a declaration (or the statement holding it) has a JSDoc comment with text or tags. */
function hasDoc(decl: ts.Declaration): boolean {
  const nodes = ts.getJSDocCommentsAndTags(decl);
  if (nodes.some((n) => ts.isJSDoc(n) && ((n.comment !== undefined && n.comment !== '') || (n.tags?.length ?? 0) > 0))) return true;
  // `export const a = 1, b = 2;` and variable declarations: the comment sits on the statement.
  if (ts.isVariableDeclaration(decl)) {
    const stmt = decl.parent.parent;
    return ts.getJSDocCommentsAndTags(stmt).length > 0;
  }
  return false;
}

/** The undocumented exports of the entry: `path — file:line`. */
export function undocumentedExports(): { checked: number; missing: string[] } {
  const prog = program();
  const checker = prog.getTypeChecker();
  const entry = prog.getSourceFile(ENTRY);
  if (entry === undefined) throw new Error(`cannot read ${ENTRY}`);
  const moduleSymbol = checker.getSymbolAtLocation(entry);
  if (moduleSymbol === undefined) throw new Error('src/index.ts is not a module');
  const missing: string[] = [];
  const seen = new Set<ts.Symbol>();
  let checked = 0;

  const visitModule = (mod: ts.Symbol, prefix: string): void => {
    for (const exp of checker.getExportsOfModule(mod)) {
      const name = prefix + exp.name;
      const target = exp.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exp) : exp;
      // `export * as torch from './torch.js'`, or `export { safetensors } from` such a line: the namespace
      // export is a declaration along the alias chain.
      const aliasDecls: ts.NamespaceExport[] = [];
      for (let a: ts.Symbol | undefined = exp, hops = 0; a !== undefined && hops < 16 && a.flags & ts.SymbolFlags.Alias; hops++) {
        aliasDecls.push(...(a.declarations ?? []).filter((d) => ts.isNamespaceExport(d)));
        a = checker.getImmediateAliasedSymbol(a);
      }
      const isNamespaceReexport = aliasDecls.length > 0;
      const decls = isNamespaceReexport ? aliasDecls.map((d) => d.parent as ts.Declaration) : (target.declarations ?? []);
      checked++;
      const documented = isNamespaceReexport ? decls.some((d) => ts.getJSDocCommentsAndTags(d).length > 0) : decls.some(hasDoc);
      if (!documented) {
        const d = decls[0] ?? exp.declarations?.[0];
        const where =
          d === undefined
            ? '?'
            : `${relative(ROOT, d.getSourceFile().fileName)}:${d.getSourceFile().getLineAndCharacterOfPosition(d.getStart()).line + 1}`;
        missing.push(`${name} — ${where}`);
      }
      const isModule = (target.flags & ts.SymbolFlags.ValueModule) !== 0 || (target.flags & ts.SymbolFlags.NamespaceModule) !== 0;
      if (isModule && !seen.has(target)) {
        seen.add(target);
        visitModule(target, `${name}.`);
      }
    }
  };
  visitModule(moduleSymbol, '');
  return { checked, missing };
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const { checked, missing } = undocumentedExports();
  for (const m of missing) console.log(`  undocumented: ${m}`);
  console.log(`docs: ${checked} public exports, ${missing.length} without a doc comment`);
  if (missing.length > 0) {
    console.log("docs: FAIL add a /** ... */ comment to each (PyTorch's wording where it fits)");
    process.exitCode = 1;
  }
}
