// The autograd machinery against PyTorch 2.13, views, in-place on views and in-place view ops; also retain_grad under
// create_graph, anomaly mode and torch.autograd.functional: every scenario of
// tools/golden/autograd_semantics/views.py (in test/golden/autograd_semantics.json) replayed with aten-ts's API
// (test/autograd/semantics/views.ts); test/autograd/semantics.test.ts checks that the topics cover the fixture.
import { VIEWS } from './semantics/views.js';
import { replayScenarios } from './semantics/harness.js';

replayScenarios('views', VIEWS);
