// tools/package/sideEffects.ts: which built modules have import-time effects (package.json's sideEffects).
import { describe, expect, it } from 'vitest';
import { effectfulModules, moduleEffects } from '../../tools/package/sideEffects.js';

describe('moduleEffects', () => {
  it('finds calls of imported functions and writes to globals', () => {
    const src = [
      "import { Dispatcher } from '../dispatch/Dispatcher.js';",
      "import { installHooks } from './hooks.js';",
      'export function registerAten() {}',
      'Dispatcher.addStaticInitializer(registerAten);',
      'installHooks();',
      'globalThis.atenLoaded = true;',
    ].join('\n');
    expect(moduleEffects('a.js', src)).toEqual([
      'Dispatcher.addStaticInitializer(registerAten);',
      'installHooks();',
      'globalThis.atenLoaded = true;',
    ]);
  });

  it('ignores module-local set-up: enum IIFEs, local tables, defineProperty on a local class', () => {
    const src = [
      'export var Kind;',
      "(function (Kind) { Kind[Kind['A'] = 0] = 'A'; })(Kind || (Kind = {}));",
      'const NAMES = [];',
      "NAMES[0] = 'a';",
      'export class Tensor {}',
      'Object.defineProperty(Tensor.prototype, BRAND, { value: true });',
      'export const f = () => 1;',
    ].join('\n');
    expect(moduleEffects('b.js', src)).toEqual([]);
  });

  it('propagates through bare imports only', () => {
    const sources = new Map([
      ['dist/index.js', "import './api/torch.js';\nexport { Tensor } from './tensor/Tensor.js';"],
      ['dist/api/torch.js', "import { install } from '../tensor/Tensor.js';\ninstall();"],
      ['dist/tensor/Tensor.js', 'export class Tensor {}\nexport function install() {}'],
      ['dist/other.js', "export * from './api/torch.js';"],
    ]);
    const why = effectfulModules(sources);
    expect([...why.keys()].sort()).toEqual(['dist/api/torch.js', 'dist/index.js']);
    expect(why.get('dist/index.js')).toBe("import 'dist/api/torch.js'");
  });
});
