// torch.profiler: per-operator CPU time through the dispatcher's observers. See README.md.
export { KeyAverages, ProfilerActivity, profile, record_function, setTraceFileWriter, type ProfileOptions } from './profiler.js';
export { FunctionEvent, FunctionEventAvg, formatTime, type SortBy, type TableOptions } from './profiler_util.js';
