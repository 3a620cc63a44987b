// Record and replay of call streams: a CNN's forward and backward recorded to JSON, replayed on meta and on
// cpu with every output's metadata equal to the recording; a tampered recording is reported.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { RecordMode, replay, type CallStream } from '../../src/modes/record_replay.js';
import { LeNet } from './lenet.js';

describe('record and replay', () => {
  const model = new LeNet();
  const rec = new RecordMode();
  rec.run(() => {
    const out = model.call(torch.randn([2, 1, 28, 28]));
    out.sum().backward();
  });
  const stream = JSON.parse(JSON.stringify(rec.toJSON())) as CallStream;

  it('records every call with schema, arguments and outputs', () => {
    expect(stream.format).toBe('aten-ts.call-stream/1');
    const ops = stream.calls.map((c) => c.op);
    expect(ops).toContain('aten::convolution');
    expect(ops).toContain('aten::addmm');
    expect(ops).toContain('aten::_conv2d_backward_weight');
    const conv = stream.calls.find((c) => c.op === 'aten::convolution')!;
    expect(conv.schema).toMatch(/^aten::convolution\(Tensor input, Tensor weight, Tensor\? bias/);
    expect(conv.args).toHaveLength(9);
    expect(conv.outputs[0]).toMatchObject({ dtype: 'float32', sizes: [2, 6, 24, 24], device: 'cpu' });
  });

  it('replays on meta and on cpu with the recorded output metadata', () => {
    for (const device of ['meta', 'cpu']) {
      const report = replay(stream, { device });
      expect(report.calls).toBe(stream.calls.length);
      expect(report.mismatches, device).toEqual([]);
    }
  });

  it('reports outputs that differ from the recording', () => {
    const i = stream.calls.findIndex((c) => c.op === 'aten::addmm');
    const calls = stream.calls.map((c, j) =>
      j === i ? { ...c, outputs: [{ ...(c.outputs[0] as object), sizes: [2, 121] }] } : c,
    ) as CallStream['calls'];
    const report = replay({ format: stream.format, calls }, { device: 'meta' });
    expect(report.mismatches[0]).toMatch(/^call \d+ aten::addmm: output 0 sizes \[2,120\], recorded \[2,121\]$/);
    expect(() => replay({ format: 'x', calls: [] } as unknown as CallStream)).toThrow(
      "expected a call stream of format 'aten-ts.call-stream/1'",
    );
  });
});
