// smooth_l1_loss, huber_loss, kl_div, cosine_similarity, pairwise_distance against PyTorch 2.13:
// test/golden/loss_distance.json (tools/golden/gen_loss_distance.py), replayed by ./opCases.ts.
import { describe } from 'vitest';
import { loadGolden } from '../golden.js';
import { opCases, type OpCase } from './opCases.js';

describe('smooth_l1, huber, kl_div, cosine_similarity, pairwise_distance (PyTorch golden)', () => {
  opCases(loadGolden<{ cases: OpCase[] }>('loss_distance.json').cases);
});
