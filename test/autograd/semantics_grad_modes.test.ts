// The autograd machinery against PyTorch 2.13, grad modes: no_grad, set_grad_enabled, inference_mode and inference
// tensors: every scenario of tools/golden/autograd_semantics/grad_modes.py (in test/golden/autograd_semantics.json)
// replayed with aten-ts's API (test/autograd/semantics/grad_modes.ts); test/autograd/semantics.test.ts checks that
// the topics cover the fixture.
import { GRAD_MODES } from './semantics/grad_modes.js';
import { replayScenarios } from './semantics/harness.js';

replayScenarios('grad modes', GRAD_MODES);
