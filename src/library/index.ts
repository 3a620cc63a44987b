// torch.library and torch.ops (see README.md in this folder); `torch.library` in src/torch.ts is this module.
export {
  Library,
  define,
  fallthrough_kernel,
  impl,
  lookupOp,
  register_autograd,
  register_fake,
  register_kernel,
  type PyImplOptions,
  type PyKernel,
  type PyLibraryOptions,
} from './library.js';
export { CustomOpDef, custom_op, type AutogradRegistration, type CustomOpOptions } from './custom_ops.js';
export {
  AOT_NOT_APPLICABLE,
  MetadataMismatchError,
  OpCheckError,
  opcheck,
  type OpCheckOp,
  type OpCheckOptions,
  type OpCheckTest,
} from './opcheck.js';
export { OpOverload, OpOverloadPacket, bindArguments, makeOps, ops, type OpNamespace, type OpPacket, type Ops } from './ops.js';
