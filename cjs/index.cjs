// `require('aten-ts')`: the package is ESM-only (Node 20 cannot require an ES module), so CommonJS gets this
// file, through the `require` condition of package.json's `exports`, and a message saying how to load it.
'use strict';

throw new Error(
  "aten-ts is an ES module only package: require('aten-ts') cannot load it. Use " +
    '`import { torch } from \'aten-ts\'` in an ES module (a .mjs file, or "type": "module" in package.json), ' +
    "or `const { torch } = await import('aten-ts')` from CommonJS.",
);
