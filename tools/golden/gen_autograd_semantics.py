"""Golden fixture for the autograd machinery: graph structure (requires_grad, is_leaf, grad_fn names,
next_functions, output_nr), requires_grad_ errors, printing, backward (implicit ones, retain_graph, second
backward, create_graph, inputs=), torch.autograd.grad (allow_unused, grad_outputs, materialize_grads), tensor
and node hooks, retain_grad, broadcasting and dtypes of gradients, grad modes and inference mode, the version
counter of in-place operations and its errors, detach, views (_base, in-place on views, CopySlices) and out=.

Each scenario is a small Python function whose observations (a JSON object) test/autograd/semantics_*.test.ts
reproduce with aten-ts's API, one TypeScript function per scenario name. The scenarios live in
tools/golden/autograd_semantics/, one module per topic (graph, backward, hooks, broadcast, grad_modes, version,
views, custom_function), imported below in the order the fixture records them. Tensors are written as
{dtype, sizes, values} (values flattened row-major), graph nodes by `name()`, errors as {"error": text} with the
text cut at "\\nException raised from".

Run: $PYTHON tools/golden/gen_autograd_semantics.py  ->  test/golden/autograd_semantics.json
"""
import json
import os

import torch

from autograd_semantics.common import SCENARIOS
# Importing a topic module registers its scenarios, in this order.
from autograd_semantics import graph, backward, hooks, broadcast, grad_modes, version, views, custom_function  # noqa: F401

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'autograd_semantics.json')


def main():
    scenarios = {}
    for key, fn in SCENARIOS.items():
        torch.manual_seed(0)
        scenarios[key] = fn()
    lines = ['{', f'  "generated_by": "tools/golden/gen_autograd_semantics.py",',
             f'  "torch_version": {json.dumps(torch.__version__)},', '  "scenarios": {']
    items = list(scenarios.items())
    for i, (key, value) in enumerate(items):
        lines.append(f'    {json.dumps(key)}: {json.dumps(value, sort_keys=True)}' + (',' if i < len(items) - 1 else ''))
    lines.append('  }')
    lines.append('}')
    with open(OUT, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print(f'wrote {OUT}: {len(scenarios)} scenarios')


if __name__ == '__main__':
    main()
