// src/serialization: torch.save / torch.load in PyTorch's zip format, and safetensors. See README.md.
export { load, save, saveToArchive, type LoadOptions } from './serialization.js';
export { setSerializationFileSystem, type SerializationFileSystem } from './file_system.js';
export { isOrderedDict, isParameter, isTuple, markOrderedDict, markParameter, tuple } from './python_objects.js';
export { UnpicklingError } from './weights_only_unpickler.js';
/** Hugging Face's safetensors format: `safetensors.save(tensors)` to bytes, `safetensors.load(bytes)`. */
export * as safetensors from './safetensors.js';
