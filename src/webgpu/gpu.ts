// The part of the WebGPU API this device uses, typed here: the core compiles without @webgpu/types, and a
// user's project need not install them. Structural types: a browser's `navigator.gpu` and the npm package
// `webgpu` (Dawn) both fit. No PyTorch counterpart (PyTorch's MPS backend talks to Metal in Objective-C++).

/** GPUBufferUsage flags (the WebGPU specification's values). */
export const BufferUsage = {
  MAP_READ: 0x0001,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  STORAGE: 0x0080,
} as const;

/** GPUMapMode.READ. */
export const MAP_READ = 0x0001;

export interface GPUBufferLike {
  readonly size: number;
  mapAsync(mode: number, offset?: number, size?: number): Promise<void>;
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

export interface GPUBindGroupLike {
  readonly label?: string;
}

export interface GPUComputePipelineLike {
  getBindGroupLayout(index: number): unknown;
}

export interface GPUComputePassLike {
  setPipeline(pipeline: GPUComputePipelineLike): void;
  setBindGroup(index: number, group: GPUBindGroupLike): void;
  dispatchWorkgroups(x: number, y?: number, z?: number): void;
  end(): void;
}

export interface GPUCommandEncoderLike {
  beginComputePass(): GPUComputePassLike;
  copyBufferToBuffer(src: GPUBufferLike, srcOffset: number, dst: GPUBufferLike, dstOffset: number, size: number): void;
  finish(): unknown;
}

export interface GPUQueueLike {
  submit(buffers: unknown[]): void;
  writeBuffer(buffer: GPUBufferLike, offset: number, data: ArrayBufferView | ArrayBufferLike, dataOffset?: number, size?: number): void;
  onSubmittedWorkDone(): Promise<void>;
}

export interface GPUShaderModuleLike {
  getCompilationInfo?(): Promise<{ messages: readonly { type: string; message: string; lineNum: number }[] }>;
}

export interface GPUDeviceLike {
  readonly queue: GPUQueueLike;
  readonly limits: { readonly maxStorageBufferBindingSize: number; readonly maxComputeWorkgroupsPerDimension: number };
  readonly lost?: Promise<{ readonly message: string }>;
  createBuffer(d: { size: number; usage: number; mappedAtCreation?: boolean; label?: string }): GPUBufferLike;
  createShaderModule(d: { code: string; label?: string }): GPUShaderModuleLike;
  createComputePipeline(d: {
    layout: 'auto';
    compute: { module: GPUShaderModuleLike; entryPoint: string };
    label?: string;
  }): GPUComputePipelineLike;
  createBindGroup(d: {
    layout: unknown;
    entries: { binding: number; resource: { buffer: GPUBufferLike; offset?: number; size?: number } }[];
  }): GPUBindGroupLike;
  createCommandEncoder(): GPUCommandEncoderLike;
  pushErrorScope?(filter: string): void;
  popErrorScope?(): Promise<{ readonly message: string } | null>;
  destroy(): void;
}

export interface GPUAdapterLike {
  readonly info?: { readonly vendor?: string; readonly architecture?: string; readonly device?: string; readonly description?: string };
  readonly features: { has(name: string): boolean };
  readonly limits: { readonly maxStorageBufferBindingSize: number; readonly maxBufferSize: number };
  requestDevice(d?: { requiredLimits?: Record<string, number>; requiredFeatures?: string[] }): Promise<GPUDeviceLike>;
}

/** `navigator.gpu`, or the object the npm package `webgpu` creates with `create([])`. */
export interface GPULike {
  requestAdapter(options?: { powerPreference?: string; forceFallbackAdapter?: boolean }): Promise<GPUAdapterLike | null>;
}
