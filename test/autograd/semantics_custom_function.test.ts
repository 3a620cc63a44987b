// The autograd machinery against PyTorch 2.13, custom torch.autograd.Function and out= with autograd: every scenario
// of tools/golden/autograd_semantics/custom_function.py (in test/golden/autograd_semantics.json) replayed with
// aten-ts's API (test/autograd/semantics/custom_function.ts); test/autograd/semantics.test.ts checks that the topics
// cover the fixture.
import { CUSTOM_FUNCTION } from './semantics/custom_function.js';
import { replayScenarios } from './semantics/harness.js';

replayScenarios('custom function', CUSTOM_FUNCTION);
