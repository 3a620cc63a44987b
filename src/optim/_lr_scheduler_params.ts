// The module-level helpers of torch/optim/lr_scheduler.py that the scheduler files share: the param groups,
// the option-key check, and `_format_param` (one value per param group, PyTorch's length error).

import { checkOptionKeys, type Optimizer } from './optimizer.js';

export type Group = Record<string, unknown> & { lr: number };

export function groupsOf(optimizer: Optimizer<object>): Group[] {
  return optimizer.param_groups as unknown as Group[];
}

/** The options with camelCase keys as their snake_case names, checked (checkOptionKeys of optimizer.ts). */
export function checkKeys<T extends object>(name: string, options: T, keys: readonly string[]): T {
  return checkOptionKeys(name, options, Object.fromEntries(keys.map((k) => [k, true])));
}

/** PyTorch's `_format_param(name, optimizer, param)`: one number for every param group, or one per group. */
export function formatParam(name: string, optimizer: Optimizer<object>, param: number | readonly number[]): number[] {
  const n = optimizer.param_groups.length;
  if (Array.isArray(param)) {
    if (param.length !== n)
      throw new Error(
        `${name} must have the same length as optimizer.param_groups. ${name} has ${param.length} values, param_groups has ${n}.`,
      );
    return [...(param as number[])];
  }
  return new Array<number>(n).fill(param as number);
}
