// LoggingTensorMode: the lines PyTorch's capture_logs_with_logging_tensor_mode prints for the same calls.
// Fixture: test/golden/modes.json (tools/golden/gen_modes.py).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { LoggingTensorMode } from '../../src/modes/logging_mode.js';
import { loadGolden } from '../golden.js';

const G = loadGolden<{ logging: string[] }>('modes.json');

describe('LoggingTensorMode', () => {
  it("records PyTorch's lines for a sequence of calls", () => {
    const [a, b] = [torch.ones([2, 3]), torch.ones([3])];
    const mode = new LoggingTensorMode();
    mode.run(() => {
      const c = torch.add(a, b, { alpha: 2 });
      const d = c.mul(c).sum(1, { keepdim: true });
      const e = torch.cat([a, d], 1);
      e.t().clone();
      e.max(1);
      nn.functional.relu(e).view(-1).clamp({ min: 0.5 });
    });
    expect(mode.logs).toEqual(G.logging);
  });
});
