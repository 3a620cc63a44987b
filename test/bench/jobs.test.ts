// bench/jobs: the aten-ts models build with PyTorch's state_dict keys (so the weights PyTorch saves load key for key)
// and give the right output shapes, and the pure parts of the report (bench/jobs/report.ts). Nothing is timed.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/node.js';
import { CausalLM, EncoderClassifier, ResNet18, apply, lmLoss, mlp, squareSubsequentMask } from '../../bench/jobs/models.js';
import { QUICK_JOB_SIZES, ROWS, type RowSpec } from '../../bench/jobs/protocol.js';
import { formatFigure, formatLosses, perStep, placeSection, profileTable, ratio, tableRow, verdict } from '../../bench/jobs/report.js';

const row = (id: string): RowSpec => ROWS.find((r) => r.id === id)!;

describe('bench/jobs models', () => {
  it("ResNet18 has torchvision's resnet18 state_dict (122 entries, 11,689,512 parameters) and maps images to logits", () => {
    torch.manualSeed(0);
    const model = new ResNet18();
    const keys = Object.keys(model.state_dict());
    expect(keys.length).toBe(122);
    expect(keys).toContain('layer2.0.downsample.0.weight');
    expect(keys).toContain('layer4.1.bn2.num_batches_tracked');
    expect(keys.at(-1)).toBe('fc.bias');
    expect(model.parameters().reduce((n, p) => n + p.numel(), 0)).toBe(11_689_512);
    model.eval();
    const out = torch.noGrad(() => model.call(torch.randn(2, 3, 32, 32)));
    expect(out.shape).toEqual([2, 1000]);
  });

  it("the encoder classifier and the causal LM have nn.TransformerEncoder's keys; the LM's loss is a scalar", () => {
    torch.manualSeed(0);
    const e = QUICK_JOB_SIZES.encoder;
    const enc = new EncoderClassifier(e);
    const keys = Object.keys(enc.state_dict());
    expect(keys.length).toBe(26);
    expect(keys.slice(0, 4)).toEqual([
      'encoder.layers.0.self_attn.in_proj_weight',
      'encoder.layers.0.self_attn.in_proj_bias',
      'encoder.layers.0.self_attn.out_proj.weight',
      'encoder.layers.0.self_attn.out_proj.bias',
    ]);
    expect(enc.call(torch.randn(e.batch, e.seq, e.d_model)).shape).toEqual([e.batch, e.classes]);

    const d = QUICK_JOB_SIZES.decoder;
    const lm = new CausalLM(d);
    expect(Object.keys(lm.state_dict()).length).toBe(30); // the mask is a non-persistent buffer
    const tokens = torch.randint(0, d.vocab, [d.batch, d.ctx + 1]);
    expect(lm.call(tokens.narrow(1, 0, d.ctx)).shape).toEqual([d.batch, d.ctx, d.vocab]);
    const loss = lmLoss(lm, tokens);
    expect(loss.dim()).toBe(0);
    expect(Math.abs((loss.item() as number) - Math.log(d.vocab))).toBeLessThan(1); // near uniform at initialisation
  });

  it('the causal LM does not look ahead: changing the last token leaves the earlier logits alone', () => {
    torch.manualSeed(0);
    const d = QUICK_JOB_SIZES.decoder;
    const lm = new CausalLM(d);
    const a = torch.randint(0, d.vocab, [1, d.ctx]);
    const b = a.clone();
    b.narrow(1, d.ctx - 1, 1).fill_(((a.narrow(1, d.ctx - 1, 1).item() as number) + 1) % d.vocab);
    const [la, lb] = [lm.call(a), lm.call(b)];
    expect(torch.equal(la.narrow(1, 0, d.ctx - 1), lb.narrow(1, 0, d.ctx - 1))).toBe(true);
    expect(torch.equal(la, lb)).toBe(false);
    expect(squareSubsequentMask(3).tolist()).toEqual([
      [0, -Infinity, -Infinity],
      [0, 0, -Infinity],
      [0, 0, 0],
    ]);
  });

  it('mlp(widths) is Linear and ReLU through the widths', () => {
    const m = mlp([784, 512, 512, 10]);
    expect(Object.keys(m.state_dict())).toEqual(['0.weight', '0.bias', '2.weight', '2.bias', '4.weight', '4.bias']);
    expect(apply(m, torch.randn(3, 784)).shape).toEqual([3, 10]);
  });
});

describe('bench/jobs report', () => {
  it('ratios: same-round medians for times, best epoch ÷ best epoch for LeNet', () => {
    const f = (ms: number, images?: number) => ({ ms, steps: 1, ...(images === undefined ? {} : { images }) });
    // Round ratios 2, 4, 3: median 3.
    expect(ratio(row('encoder'), { aten: [f(2), f(8), f(6)], torch: [f(1), f(2), f(2)] })).toBe(3);
    // LeNet: best aten epoch 2000 ms, best torch epoch 500 ms (10,000 images): 5000 vs 20,000 img/s.
    const lenet = { aten: [f(3000, 10_000), f(2000, 10_000)], torch: [f(500, 10_000), f(700, 10_000)] };
    expect(ratio(row('lenet'), lenet)).toBe(4);
    expect(formatFigure(row('lenet'), lenet.aten)).toBe('5000 img/s');
    expect(verdict(row('lenet'), lenet)).toBe('≤ 1.5× ✗');
    expect(verdict(row('encoder'), { aten: [f(3)], torch: [f(2)] })).toBe('≤ 2× ✓');
  });

  it('absolute targets in the row’s unit; units from ms', () => {
    const add = { aten: [{ ms: 120e-6, steps: 1 }], torch: [{ ms: 1e-3, steps: 1 }] };
    expect(formatFigure(row('add1'), add.aten)).toBe('120 ns');
    expect(verdict(row('add1'), add)).toBe('≤ 150 ns ✓');
    expect(formatFigure(row('mul'), [{ ms: 0.25, steps: 1 }])).toBe('250 µs');
    expect(verdict(row('first_op'), { aten: [{ ms: 180, steps: 1 }], torch: [] })).toBe('≤ 150 ms ✗');
    expect(verdict(row('import'), { aten: [{ ms: 180, steps: 1 }], torch: [] })).toBe('');
  });

  it('losses, per-step counts and a table line', () => {
    expect(formatLosses([2.30765438, 2.1, 2.0795855])).toBe('2.3077 → 2.0796');
    expect(formatLosses([0.035879])).toBe('0.035879');
    expect(formatLosses([])).toBe('—');
    expect(perStep([{ ms: 1, steps: 10, gc: 1, faults: 30 }, undefined, { ms: 1, steps: 10, gc: 3, faults: 10 }], 'gc')).toBe('0.200');
    expect(perStep([{ ms: 1, steps: 10 }], 'faults')).toBe('—');
    const line = tableRow(row('mlp'), 2, {
      aten: [{ ms: 1.2, steps: 100, gc: 0, faults: 5 }],
      torch: [{ ms: 1, steps: 100 }],
      atenLosses: [2.3, 2.2],
      torchLosses: [2.3, 2.2],
    });
    expect(line).toBe(
      '| MLP 784-128-10, batch 64, SGD: step | 2 | 1.20 ms | 1.00 ms | 1.20× | ≤ 1.2× ✓ | 2.3000 → 2.2000 | 2.3000 → 2.2000 | 0 | 0.0500 |',
    );
  });

  it('--profile: operators by aten-ts self time, ratio and share, PyTorch-only operators, the rest and the total', () => {
    const aten = {
      steps: 4,
      step_ms: 10,
      ops: { 'aten::mm': { self_ms: 6, calls: 3 }, 'aten::add_': { self_ms: 3, calls: 4 }, 'aten::t': { self_ms: 1, calls: 9 } },
    };
    const torchSide = {
      steps: 4,
      step_ms: 5,
      ops: { 'aten::mm': { self_ms: 3, calls: 3 }, 'aten::add_': { self_ms: 1, calls: 4 }, 'aten::fused': { self_ms: 1, calls: 1 } },
    };
    const lines = profileTable('job, 1 thread', aten, torchSide, 2).split('\n');
    expect(lines[0]).toContain('aten-ts 10.0 ms and PyTorch 5.00 ms a step');
    expect(lines[4]).toBe('| `aten::mm` | 6.00 | 3.00 | 3.00 | 3.00 | 2.00× | 60% |');
    expect(lines[5]).toBe('| `aten::add_` | 3.00 | 4.00 | 1.00 | 4.00 | 3.00× | 30% |');
    expect(lines[6]).toBe('| `aten::fused` (PyTorch only) | — | — | 1.00 | 1.00 | — | — |');
    expect(lines[7]).toBe('| all other operators | 1.00 | 9.00 | 0 | 0 | — | 10% |');
    expect(lines[8]).toBe('| all operators (self time) | 10.0 | 16.0 | 5.00 | 8.00 | 2.00× | 100% |');
    expect(profileTable('no PyTorch', aten, undefined, 1).split('\n')[4]).toBe('| `aten::mm` | 6.00 | 3.00 | — | — | — | 60% |');
  });

  it('the section replaces its old text, or goes after the intro', () => {
    const doc = '# Results\n\nintro\n\n## A\n\na\n';
    const placed = placeSection(doc, '## Jobs', 'table');
    expect(placed).toBe('# Results\n\nintro\n\n## Jobs\n\ntable\n\n## A\n\na\n');
    expect(placeSection(placed, '## Jobs', 'new')).toBe('# Results\n\nintro\n\n## Jobs\n\nnew\n\n## A\n\na\n');
  });
});
