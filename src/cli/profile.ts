// `npm start -- --profile`: the run under torch.profiler (src/profiler): PyTorch's operator table (top-level and
// nested calls, self and total CPU time) and aten-ts's dispatch overhead per call, split by phase. Node only.

import { profile } from '../profiler/index.js';

/** Starts the profiler; `stop` prints its tables. */
export function startProfile(): { stop(print: (line: string) => void): void } {
  const prof = new profile({ dispatch_overhead: true }).start();
  return {
    stop(print) {
      prof.stop();
      print('\nprofile (torch.profiler; the dispatcher observes every call while it runs, which slows each call)');
      print(prof.key_averages().table({ sort_by: 'self_cpu_time_total', row_limit: 25 }));
      print(prof.dispatch_overhead_table({ row_limit: 15 }));
    },
  };
}
