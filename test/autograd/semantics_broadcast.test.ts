// The autograd machinery against PyTorch 2.13, broadcast gradients and the dtypes of gradients: every scenario of
// tools/golden/autograd_semantics/broadcast.py (in test/golden/autograd_semantics.json) replayed with aten-ts's API
// (test/autograd/semantics/broadcast.ts); test/autograd/semantics.test.ts checks that the topics cover the fixture.
import { BROADCAST } from './semantics/broadcast.js';
import { replayScenarios } from './semantics/harness.js';

replayScenarios('broadcast', BROADCAST);
