// The IDX file format (LeCun's MNIST format) and a Fashion-MNIST dataset over its bytes. Mirrors
// torchvision/datasets/mnist.py (read_image_file, read_label_file, read_sn3_pascalvincent_tensor, class
// FashionMNIST) and torchvision.transforms.ToTensor for the images. Browser-safe: it works on bytes; reading
// files is Node's business (src/cli/fashion_mnist.ts).

import { parseKw } from '../../c10/Kwargs.js';
import { gunzipSync } from 'fflate';
import { empty, tensor } from '../../api/torch.js';
import { ScalarType } from '../../c10/ScalarType.js';
import type { Tensor } from '../../tensor/Tensor.js';
import { Dataset } from './dataset.js';

/** An IDX file's contents: its element type, dims and values (big-endian on disk, native here). */
export interface IdxArray {
  dtype: 'uint8' | 'int8' | 'int16' | 'int32' | 'float32' | 'float64';
  dims: number[];
  data: Uint8Array | Int8Array | Int16Array | Int32Array | Float32Array | Float64Array;
}

const IDX_TYPES: Record<number, [IdxArray['dtype'], number]> = {
  0x08: ['uint8', 1],
  0x09: ['int8', 1],
  0x0b: ['int16', 2],
  0x0c: ['int32', 4],
  0x0d: ['float32', 4],
  0x0e: ['float64', 8],
};

/** The bytes, gunzipped when they start with gzip's magic number (0x1f 0x8b). */
export function gunzipIfNeeded(bytes: Uint8Array): Uint8Array {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
}

/**
 * Parses an IDX file (gzipped or not): magic `0 0 type ndim`, ndim big-endian int32 sizes, then the values
 * big-endian, as torchvision's `read_sn3_pascalvincent_tensor`.
 */
export function readIdx(input: Uint8Array): IdxArray {
  const bytes = gunzipIfNeeded(input);
  if (bytes.length < 4 || bytes[0] !== 0 || bytes[1] !== 0)
    throw new Error('not an IDX file: the magic number must start with two zero bytes');
  const type = IDX_TYPES[bytes[2] as number];
  if (type === undefined) throw new Error(`not an IDX file: unknown element type 0x${(bytes[2] as number).toString(16)}`);
  const [dtype, width] = type;
  const ndim = bytes[3] as number;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dims: number[] = [];
  for (let i = 0; i < ndim; i++) dims.push(view.getInt32(4 + 4 * i, false));
  const offset = 4 + 4 * ndim;
  const n = dims.reduce((a, b) => a * b, 1);
  if (bytes.length !== offset + n * width) {
    throw new Error(`IDX file size mismatch: dims ${JSON.stringify(dims)} need ${offset + n * width} bytes, got ${bytes.length}`);
  }
  let data: IdxArray['data'];
  switch (dtype) {
    case 'uint8':
      data = bytes.slice(offset, offset + n);
      break;
    case 'int8':
      data = new Int8Array(bytes.slice(offset, offset + n).buffer);
      break;
    default: {
      const Ctor = { int16: Int16Array, int32: Int32Array, float32: Float32Array, float64: Float64Array }[dtype];
      const out = new Ctor(n);
      for (let i = 0; i < n; i++) {
        const at = offset + i * width;
        out[i] =
          dtype === 'int16'
            ? view.getInt16(at, false)
            : dtype === 'int32'
              ? view.getInt32(at, false)
              : dtype === 'float32'
                ? view.getFloat32(at, false)
                : view.getFloat64(at, false);
      }
      data = out;
    }
  }
  return { dtype, dims, data };
}

/** FashionMNIST's options: the IDX bytes (gzipped or not) and torchvision's transforms. */
export interface FashionMNISTOptions<X = Tensor, Y = number> {
  images: Uint8Array;
  labels: Uint8Array;
  /** Applied to each image, a uint8 tensor [28, 28] (default: `FashionMNIST.toTensor`, float32 [1, 28, 28] / 255). */
  transform?: ((img: Tensor) => X) | null;
  /** Applied to each label, a number (default: none). */
  target_transform?: ((target: number) => Y) | null;
}

/**
 * `torchvision.datasets.FashionMNIST` over IDX bytes: `data` (uint8 [N, 28, 28]) and `targets` (int64 [N]);
 * sample i is `[transform(data[i]), target_transform(targets[i])]`. The default transform is ToTensor's
 * (uint8 → float32 [1, 28, 28] / 255), so the samples are what `transform=ToTensor()` gives in PyTorch.
 *
 * @example
 * ```ts
 * const train = new FashionMNIST({ images: imageBytes, labels: labelBytes });
 * const loader = new DataLoader(train, { batch_size: 64, shuffle: true });
 * ```
 */
export class FashionMNIST<X = Tensor, Y = number> extends Dataset<[X, Y]> {
  static readonly classes = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot'];

  /** torchvision.transforms.ToTensor on a uint8 [H, W] image: float32 [1, H, W] divided by 255. */
  static toTensor(img: Tensor): Tensor {
    return img.unsqueeze(0).to(ScalarType.Float).div(255);
  }

  readonly data: Tensor;
  readonly targets: Tensor;
  readonly classes = FashionMNIST.classes;
  private readonly labelList: number[];
  private readonly transform: ((img: Tensor) => X) | null;
  private readonly targetTransform: ((target: number) => Y) | null;

  constructor(options: FashionMNISTOptions<X, Y>) {
    super();
    options = parseKw('FashionMNIST.__init__', options, [
      'images',
      'labels',
      'transform',
      'target_transform',
    ]) as unknown as FashionMNISTOptions<X, Y>;
    const images = readIdx(options.images);
    const labels = readIdx(options.labels);
    if (images.dtype !== 'uint8' || images.dims.length !== 3)
      throw new Error(`FashionMNIST: expected uint8 images [N, H, W], got ${images.dtype} ${JSON.stringify(images.dims)}`);
    if (labels.dtype !== 'uint8' || labels.dims.length !== 1)
      throw new Error(`FashionMNIST: expected uint8 labels [N], got ${labels.dtype} ${JSON.stringify(labels.dims)}`);
    if (images.dims[0] !== labels.dims[0]) throw new Error(`FashionMNIST: ${images.dims[0]} images but ${labels.dims[0]} labels`);
    this.data = empty(images.dims, { dtype: ScalarType.Byte });
    const { data, base } = this.data.dataView();
    data.set(images.data, base);
    this.labelList = Array.from(labels.data);
    this.targets = tensor(this.labelList, { dtype: ScalarType.Long });
    this.transform = options.transform === undefined ? (FashionMNIST.toTensor as unknown as (img: Tensor) => X) : options.transform;
    this.targetTransform = options.target_transform ?? null;
  }

  getItem(index: number): [X, Y] {
    const img = this.data.select(0, index);
    const target = this.labelList[index < 0 ? this.labelList.length + index : index];
    if (target === undefined) throw new RangeError(`index ${index} is out of range`);
    return [
      this.transform === null ? (img as unknown as X) : this.transform(img),
      this.targetTransform === null ? (target as unknown as Y) : this.targetTransform(target),
    ];
  }

  len(): number {
    return this.labelList.length;
  }
}
