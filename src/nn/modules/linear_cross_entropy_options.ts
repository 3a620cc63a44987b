// LinearCrossEntropyOptions: the chunking options of F.linear_cross_entropy / nn.LinearCrossEntropyLoss.
// Mirrors torch/nn/modules/linear_cross_entropy_options.py (the dataclass: its fields, defaults and repr).
// See Note [linear_cross_entropy computes the reference path].

import { parseArgs, pyRepr } from './utils.js';

/** The fields of `LinearCrossEntropyOptions`, by PyTorch's names. */
export interface LinearCrossEntropyOptionsFields {
  allow_retain_graph?: boolean;
  batch_chunk_size?: number | null;
  chunking_method?: string | null;
  acc_policy?: string;
  acc_dtype?: string | null;
}

/**
 * `nn.LinearCrossEntropyOptions(allow_retain_graph=False, batch_chunk_size=None, chunking_method='auto',
 * acc_policy='auto', acc_dtype=None)`: how the batch is chunked (a plain object with these keys is accepted
 * wherever an instance is).
 */
export class LinearCrossEntropyOptions {
  allow_retain_graph: boolean;
  batch_chunk_size: number | null;
  chunking_method: string | null;
  acc_policy: string;
  acc_dtype: string | null;

  constructor(fields: LinearCrossEntropyOptionsFields = {}) {
    const a = parseArgs(
      'LinearCrossEntropyOptions',
      {
        allow_retain_graph: false,
        batch_chunk_size: null as number | null,
        chunking_method: 'auto' as string | null,
        acc_policy: 'auto',
        acc_dtype: null as string | null,
      },
      [fields],
    );
    this.allow_retain_graph = a.allow_retain_graph;
    this.batch_chunk_size = a.batch_chunk_size;
    this.chunking_method = a.chunking_method;
    this.acc_policy = a.acc_policy;
    this.acc_dtype = a.acc_dtype;
  }

  /** The dataclass repr: `LinearCrossEntropyOptions(allow_retain_graph=False, batch_chunk_size=None, ...)`. */
  toString(): string {
    const f = (k: keyof LinearCrossEntropyOptionsFields): string => `${k}=${pyRepr(this[k])}`;
    const keys = ['allow_retain_graph', 'batch_chunk_size', 'chunking_method', 'acc_policy', 'acc_dtype'] as const;
    return `LinearCrossEntropyOptions(${keys.map(f).join(', ')})`;
  }
}
