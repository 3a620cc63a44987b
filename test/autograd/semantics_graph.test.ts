// The autograd machinery against PyTorch 2.13, graph structure: requires_grad, is_leaf, grad_fn names,
// next_functions, output_nr, requires_grad_ errors, printing: every scenario of
// tools/golden/autograd_semantics/graph.py (in test/golden/autograd_semantics.json) replayed with aten-ts's API
// (test/autograd/semantics/graph.ts); test/autograd/semantics.test.ts checks that the topics cover the fixture.
import { GRAPH } from './semantics/graph.js';
import { replayScenarios } from './semantics/harness.js';

replayScenarios('graph', GRAPH);
