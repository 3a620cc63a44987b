// The autograd semantics golden (test/golden/autograd_semantics.json, tools/golden/gen_autograd_semantics.py) is
// replayed by topic, one test file per module of tools/golden/autograd_semantics/ (semantics_graph.test.ts,
// semantics_backward.test.ts, ...). This file checks the topics together: every scenario of the fixture is
// replayed by exactly one topic, and every replay names a scenario of the fixture.
import { describe, expect, it } from 'vitest';
import { golden, type Json } from './semantics/harness.js';
import { GRAPH } from './semantics/graph.js';
import { BACKWARD } from './semantics/backward.js';
import { HOOKS } from './semantics/hooks.js';
import { BROADCAST } from './semantics/broadcast.js';
import { GRAD_MODES } from './semantics/grad_modes.js';
import { VERSION } from './semantics/version.js';
import { VIEWS } from './semantics/views.js';
import { CUSTOM_FUNCTION } from './semantics/custom_function.js';

const TOPICS: Record<string, Record<string, () => Json>> = {
  GRAPH,
  BACKWARD,
  HOOKS,
  BROADCAST,
  GRAD_MODES,
  VERSION,
  VIEWS,
  CUSTOM_FUNCTION,
};

describe('autograd semantics: the topics cover autograd_semantics.json', () => {
  it('replays every scenario of the fixture exactly once, and nothing else', () => {
    const replayed = Object.values(TOPICS).flatMap((t) => Object.keys(t));
    expect(new Set(replayed).size, 'a scenario replayed by two topics').toBe(replayed.length);
    expect([...replayed].sort()).toEqual(Object.keys(golden.scenarios).sort());
    expect(replayed.length).toBeGreaterThan(60);
  });
});
