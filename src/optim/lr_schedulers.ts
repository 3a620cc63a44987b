// The `torch.optim.lr_scheduler` namespace: lr_scheduler.ts's schedulers and lr_scheduler_extra.ts's, as one
// module (torch/optim/lr_scheduler.py is one file in PyTorch).

export * from './lr_scheduler.js';
export * from './lr_scheduler_extra.js';
