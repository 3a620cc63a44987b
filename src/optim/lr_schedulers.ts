// The `torch.optim.lr_scheduler` namespace: every scheduler of lr_scheduler.ts, lr_scheduler_cyclic.ts and
// lr_scheduler_composite.ts, as one module (torch/optim/lr_scheduler.py is one file in PyTorch).

export * from './lr_scheduler.js';
export * from './lr_scheduler_cyclic.js';
export * from './lr_scheduler_composite.js';
