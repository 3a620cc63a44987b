// The generator's one entry point: from the texts of native_functions.yaml and derivatives.yaml, every
// generated file's text by path. Mirrors torchgen/gen.py's main() minus the file system (the driver,
// src/cli/codegen.ts, reads and writes). Pure.

import { addViewCopyDerivatives, parseDerivatives } from './derivatives.js';
import { SUPPORTED_DISPATCH_KEYS, parseNativeFunctions } from './model.js';
import { emitAutograd } from './dest/autograd.js';
import { emitDispatchArity } from './dest/DispatchArity.js';
import { emitOperators } from './dest/Operators.js';
import { emitFunctions, emitMethods } from './dest/python.js';
import { emitCPUFunctions, emitRegisterDispatchKey } from './dest/RegisterDispatchKey.js';
import { emitRegisterSchema } from './dest/RegisterSchema.js';
import { emitTensorBody } from './dest/TensorBody.js';

export const YAML_PATH = 'src/aten/native_functions.yaml';
export const DERIVATIVES_PATH = 'src/autograd/derivatives.yaml';
/** The folder every generated file is written to (and that holds nothing else). */
export const GENERATED_DIR = 'src/generated';
/** The folder of the kernel modules `dispatch` entries name (`BinaryOps.add` is src/kernels/BinaryOps.ts). */
export const KERNELS_DIR = 'src/kernels';

/**
 * Every generated file's text, by path from the repository root. `kernelModules` are the file names of
 * src/kernels (without `.ts`) that `dispatch` entries may name. Throws NativeFunctionsError on an invalid file.
 */
export function generateAll(
  nativeFunctionsYaml: string,
  derivativesYaml: string,
  kernelModules?: readonly string[],
): Record<string, string> {
  const fns = parseNativeFunctions(nativeFunctionsYaml, YAML_PATH, kernelModules === undefined ? {} : { kernelModules });
  const derivatives = addViewCopyDerivatives(parseDerivatives(derivativesYaml, fns, DERIVATIVES_PATH), fns);
  const files: Record<string, string> = {
    [`${GENERATED_DIR}/Operators.ts`]: emitOperators(fns),
    [`${GENERATED_DIR}/RegisterSchema.ts`]: emitRegisterSchema(fns),
  };
  for (const key of SUPPORTED_DISPATCH_KEYS) files[`${GENERATED_DIR}/Register${key}.ts`] = emitRegisterDispatchKey(fns, key);
  files[`${GENERATED_DIR}/CPUFunctions.ts`] = emitCPUFunctions(fns);
  files[`${GENERATED_DIR}/autograd.ts`] = emitAutograd(fns, derivatives);
  files[`${GENERATED_DIR}/TensorBody.ts`] = emitTensorBody(fns);
  files[`${GENERATED_DIR}/functions.ts`] = emitFunctions(fns);
  files[`${GENERATED_DIR}/methods.ts`] = emitMethods(fns);
  files[`${GENERATED_DIR}/DispatchArity.ts`] = emitDispatchArity();
  return files;
}
