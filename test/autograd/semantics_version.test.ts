// The autograd machinery against PyTorch 2.13, the version counter, saved-tensor version checks, in-place on leaves
// and non-leaves, detach: every scenario of tools/golden/autograd_semantics/version.py (in
// test/golden/autograd_semantics.json) replayed with aten-ts's API (test/autograd/semantics/version.ts);
// test/autograd/semantics.test.ts checks that the topics cover the fixture.
import { VERSION } from './semantics/version.js';
import { replayScenarios } from './semantics/harness.js';

replayScenarios('version', VERSION);
