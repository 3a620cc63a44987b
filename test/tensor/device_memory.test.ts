// Storage.setDeviceContext (Note [Device memory in a Storage]): memory the CPU cannot address, as a GPU
// backend keeps it. A fake device allocator at PrivateUse1 shows what the core does with such storage without a
// GPU: host reads raise the allocator's message, printing shows no values, free and resize reach the allocator.
import { afterAll, describe, expect, it } from 'vitest';
import { Device, DeviceType, ScalarType, empty_generic, setAllocator, type Allocator, type Storage } from '../../src/index.js';

class FakeDeviceAllocator implements Allocator {
  readonly device = new Device(DeviceType.PrivateUse1, 0);
  readonly freed: number[] = [];
  readonly reallocated: [number, number][] = [];
  private next = 1;
  allocate(nbytes: number, into: Storage): void {
    into.setDeviceContext({ id: this.next, nbytes }, this.next++);
  }
  free(storage: Storage): void {
    this.freed.push(storage.handle);
  }
  reallocate(storage: Storage, nbytes: number): void {
    this.reallocated.push([storage.handle, nbytes]);
    storage.setDeviceContext({ id: this.next, nbytes }, this.next++);
  }
  hostAccessError(storage: Storage): string {
    return `fake device memory ${storage.handle} cannot be read on the host`;
  }
}

describe('device memory in a Storage', () => {
  const fake = new FakeDeviceAllocator();
  const old = setAllocator(DeviceType.PrivateUse1, fake);
  afterAll(() => {
    if (old !== undefined) setAllocator(DeviceType.PrivateUse1, old);
  });

  it('host reads raise the allocator message; the context is kept; printing shows no values', () => {
    const t = empty_generic([2, 3], fake, ScalarType.Float);
    expect(t.storage.deviceContext).toEqual({ id: t.storage.handle, nbytes: 24 });
    expect(t.storage.arrays).toBeNull();
    expect(t.storage.dataPtr).toBeNull();
    const msg = `fake device memory ${t.storage.handle} cannot be read on the host`;
    expect(() => t.storage.data(ScalarType.Float)).toThrow(msg);
    expect(() => t.tolist()).toThrow(msg);
    expect(() => t.item()).toThrow();
    expect(String(t).replace(/device='[^']*'/, "device='dev'")).toBe("tensor(..., device='dev', size=(2, 3))");
    expect(() => t.storage.setDeviceContext(null)).toThrow('setDeviceContext(): context must not be null');
  });

  it('free reaches the allocator once; resize goes through reallocate', () => {
    const t = empty_generic([4], fake, ScalarType.Float);
    const handle = t.storage.handle;
    t.storage.resize(64);
    expect(fake.reallocated).toEqual([[handle, 64]]);
    expect(t.storage.nbytes).toBe(64);
    const now = t.storage.handle;
    t.storage.free();
    t.storage.free();
    expect(fake.freed).toEqual([now]);
    expect(t.storage.deviceContext).toBeNull();
    expect(() => t.storage.data(ScalarType.Float)).toThrow('freed');
  });
});
