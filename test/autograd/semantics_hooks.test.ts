// The autograd machinery against PyTorch 2.13, tensor hooks, retain_grad and node (pre-)hooks: every scenario of
// tools/golden/autograd_semantics/hooks.py (in test/golden/autograd_semantics.json) replayed with aten-ts's API
// (test/autograd/semantics/hooks.ts); test/autograd/semantics.test.ts checks that the topics cover the fixture.
import { HOOKS } from './semantics/hooks.js';
import { replayScenarios } from './semantics/harness.js';

replayScenarios('hooks', HOOKS);
