// PyTorch's assertion texts. Mirrors c10/util/Exception.h (TORCH_INTERNAL_ASSERT), whose message users paste
// into a search box, so it is reproduced byte for byte, source location included.

// Note [Internal assert texts]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A failed TORCH_INTERNAL_ASSERT(cond, msg) raises RuntimeError("<cond> INTERNAL ASSERT FAILED at \"<file>\":<line>,
// please report a bug to PyTorch. <msg>"), where <file> is the C++ source path of the 2.13 wheel's build
// (/__w/pytorch/pytorch/...) and <cond> is the condition's source text (`0` for an unconditional assert).
// aten-ts raises the same text for the same situations (a fallthrough kernel that was executed, the ambiguous
// AutogradOther kernel), naming PyTorch's file and line: it is the text PyTorch users will find answers for.
// RuntimeError is a plain Error here, as everywhere in aten-ts.

/** The wheel's build prefix of PyTorch source paths, as its assertion texts print them. */
export const PYTORCH_BUILD_ROOT = '/__w/pytorch/pytorch/';

/** A TORCH_INTERNAL_ASSERT failure: `<cond> INTERNAL ASSERT FAILED at "<file>":<line>, please report a bug to PyTorch. <msg>`. */
export function internalAssertError(cond: string, file: string, line: number, message: string): Error {
  return new Error(`${cond} INTERNAL ASSERT FAILED at "${PYTORCH_BUILD_ROOT}${file}":${line}, please report a bug to PyTorch. ${message}`);
}
