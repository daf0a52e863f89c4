// Every name exported by the product's code (src/, commands/, adapters/, jobs/) is imported
// somewhere else: by the product, a test or a bench. An export nothing imports is either dead
// or private to its file, and either way should not be exported. Read with the TypeScript
// checker, so re-exports and `import * as` resolve to the declaration they name.
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const PRODUCT = ['src/', 'commands/', 'adapters/', 'jobs/'];

function program(): ts.Program {
  const configPath = resolve(ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
  return ts.createProgram(parsed.fileNames, parsed.options);
}

/** The declarations a module's users reach: aliases followed to what they name. */
function target(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

function unusedExports(): string[] {
  const prog = program();
  const checker = prog.getTypeChecker();
  const used = new Set<ts.Symbol>();
  const useAll = (moduleSymbol: ts.Symbol | undefined) => {
    if (!moduleSymbol) return;
    for (const e of checker.getExportsOfModule(moduleSymbol)) used.add(target(checker, e));
  };
  const moduleOf = (spec: ts.Expression) => checker.getSymbolAtLocation(spec);

  for (const file of prog.getSourceFiles()) {
    if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        const named = clause?.namedBindings;
        if (clause?.name) used.add(target(checker, checker.getSymbolAtLocation(clause.name)!));
        if (named && ts.isNamespaceImport(named)) useAll(moduleOf(node.moduleSpecifier));
        if (named && ts.isNamedImports(named))
          for (const el of named.elements) used.add(target(checker, checker.getSymbolAtLocation(el.name)!));
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        if (!node.exportClause) useAll(moduleOf(node.moduleSpecifier));
        else if (ts.isNamedExports(node.exportClause))
          for (const el of node.exportClause.elements)
            used.add(target(checker, checker.getSymbolAtLocation(el.name)!));
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0]
      ) {
        useAll(moduleOf(node.arguments[0]));
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        useAll(moduleOf(node.argument.literal));
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  const out: string[] = [];
  for (const file of prog.getSourceFiles()) {
    const rel = relative(ROOT, file.fileName);
    if (!PRODUCT.some((p) => rel.startsWith(p)) || !rel.endsWith('.ts')) continue;
    const moduleSymbol = checker.getSymbolAtLocation(file);
    if (!moduleSymbol) continue;
    for (const e of checker.getExportsOfModule(moduleSymbol)) {
      const declared = target(checker, e);
      // A re-export is the re-exporter's business only if it is the one place the name is used.
      if (e.flags & ts.SymbolFlags.Alias) continue;
      if (!used.has(declared)) out.push(`${rel}: ${e.getName()}`);
    }
  }
  return out.sort();
}

describe('exports', () => {
  it('every exported name of the product is imported somewhere', () => {
    expect(unusedExports()).toEqual([]);
  }, 180_000);
});
