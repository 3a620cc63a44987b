// tril / triu on the webgpu device. The counterpart of aten/src/ATen/native/TriangularOps.cpp (and
// native/mps/operations/TriangularOps.mm): the kept triangle depends only on the last two sizes and the
// diagonal, so it is made on the host as a bool mask (an upload, no read) and applied by the device's `where`.
import { torch, type Tensor } from 'aten-ts';

/** `tril(self, diagonal)` (upper false) / `triu(self, diagonal)` (upper true): `where(triangle, self, zero)`. */
export function trilTriu(upper: boolean, self: Tensor, diagonal: number): Tensor {
  const name = upper ? 'triu' : 'tril';
  if (self.dim() < 2) throw new Error(`${name}: input tensor must have at least 2 dimensions`);
  const [rows, cols] = self.sizes.slice(-2) as [number, number];
  const ones = torch.ones([rows, cols], { dtype: torch.bool });
  const keep = (upper ? ones.triu(diagonal) : ones.tril(diagonal)).to(self.device);
  // A 0-dim CPU zero of self's dtype (a number 0 would promote a bool self to int64).
  return torch.where(keep, self, torch.zeros([], { dtype: self.dtype }));
}
