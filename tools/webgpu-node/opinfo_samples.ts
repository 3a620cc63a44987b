// The webgpu checks' OpInfo samples (tools/browser/webgpu_opinfo.ts): from every fixture of test/golden/opinfo,
// the float32, float16, int64 and bool value samples PyTorch did not reject, the first SAMPLES_PER_DTYPE of each entry
// and dtype. tools/browser/run.ts serves them to the page as /webgpu_opinfo.json; tools/webgpu-node hands them
// to the checks directly. Node only. No PyTorch counterpart (OpInfo's sample inputs, recorded by tools/golden).
import { fixtureFiles, loadFixture } from '../../test/opinfo/harness.js';
import { SAMPLES_PER_DTYPE, type OpinfoEntry, type OpinfoSample } from '../browser/webgpu_opinfo.js';

export function webgpuOpinfoSamples(): OpinfoEntry[] {
  const entries: OpinfoEntry[] = [];
  for (const file of fixtureFiles()) {
    for (const op of loadFixture(file).ops) {
      const samples: OpinfoSample[] = [];
      for (const dtype of ['float32', 'float16', 'int64', 'bool']) {
        const all = (op.dtypes[dtype] ?? []) as unknown as (OpinfoSample & { result: unknown })[];
        const ok = all.filter((s) => !(typeof s.result === 'object' && s.result !== null && 'error' in s.result));
        for (const s of ok.slice(0, SAMPLES_PER_DTYPE)) {
          const { index, input, args, kwargs, seed, no_values, result } = s;
          // float16: PyTorch's result too (webgpu_opinfo.ts compares with it where the CPU device differs).
          samples.push({
            dtype,
            index,
            input,
            args,
            kwargs,
            seed,
            no_values,
            ...(dtype === 'float16' ? { result: result as OpinfoSample['input'] } : {}),
          });
        }
      }
      if (samples.length > 0) entries.push({ key: op.key, name: op.name, call: op.call, samples });
    }
  }
  return entries;
}
