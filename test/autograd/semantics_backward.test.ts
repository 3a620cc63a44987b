// The autograd machinery against PyTorch 2.13, backward (implicit ones, gradient=, accumulation, a second backward,
// retain_graph, create_graph, inputs=, several roots) and torch.autograd.grad: every scenario of
// tools/golden/autograd_semantics/backward.py (in test/golden/autograd_semantics.json) replayed with aten-ts's API
// (test/autograd/semantics/backward.ts); test/autograd/semantics.test.ts checks that the topics cover the fixture.
import { BACKWARD } from './semantics/backward.js';
import { replayScenarios } from './semantics/harness.js';

replayScenarios('backward', BACKWARD);
