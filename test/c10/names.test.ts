import { describe, expect, it } from 'vitest';
import {
  Device,
  DeviceType,
  DispatchKey,
  Layout,
  ScalarType,
  computeDispatchKey,
  parseDispatchKey,
  parseLayout,
  parseMemoryFormat,
  parseScalarType,
  toRuntimePerBackendFunctionalityKey,
  BackendComponent,
  MemoryFormat,
} from '../../src/c10/index.js';

describe('bad names and values give errors that name them and list the valid ones', () => {
  it('rejects unknown dispatch keys', () => {
    expect(() => parseDispatchKey('AutogradHIP')).toThrow(/^could not parse dispatch key: AutogradHIP$/);
  });

  it('rejects unknown dtypes', () => {
    expect(() => parseScalarType('float33')).toThrow(/unknown dtype 'float33'; expected one of .*float32/);
    expect(parseScalarType('torch.long')).toBe(ScalarType.Long);
    expect(parseScalarType('cfloat')).toBe(ScalarType.ComplexFloat);
  });

  it('rejects unknown layouts and memory formats', () => {
    expect(() => parseLayout('dense')).toThrow(/unknown layout 'dense'; expected one of strided, sparse_coo/);
    expect(parseLayout('torch.sparse_csr')).toBe(Layout.SparseCsr);
    expect(() => parseMemoryFormat('nhwc')).toThrow(/unknown memory format 'nhwc'; expected one of contiguous_format/);
    expect(parseMemoryFormat('channels_last')).toBe(MemoryFormat.ChannelsLast);
  });

  it('rejects unknown devices and out-of-range indices', () => {
    expect(() => Device.parse('gpu')).toThrow(/Expected one of cpu, cuda, .* device type at start of device string: gpu/);
    expect(() => Device.parse('cuda:128')).toThrow(/Device index must be -1 or non-negative, got 128 \(the largest device index is 127\)/);
    expect(() => Device.parse('cpu:1')).toThrow(/CPU device index must be -1 or zero, got 1/);
    expect(() => new Device(DeviceType.CUDA, -2)).toThrow(/got -2/);
    expect(new Device(DeviceType.CUDA, 127).toString()).toBe('cuda:127');
  });

  it('rejects a non-per-backend functionality in toRuntimePerBackendFunctionalityKey', () => {
    expect(() => toRuntimePerBackendFunctionalityKey(DispatchKey.BackendSelect, BackendComponent.CPUBit)).toThrow(
      /BackendSelect is not a per-backend functionality key/,
    );
  });

  it('reports unsupported device/layout pairs as PyTorch does', () => {
    expect(() => computeDispatchKey(ScalarType.Float, Layout.Sparse, Device.parse('fpga'))).toThrow(
      'Unsupported device type for sparse layout: fpga',
    );
    expect(() => computeDispatchKey(ScalarType.Float, Layout.Mkldnn, Device.parse('cuda'))).toThrow(
      'Unsupported device type for mkldnn layout: cuda',
    );
    expect(computeDispatchKey(ScalarType.QInt8, Layout.Strided, Device.parse('cuda'))).toBe(DispatchKey.QuantizedCUDA);
    expect(computeDispatchKey(undefined, undefined, undefined)).toBe(DispatchKey.CPU);
  });
});
