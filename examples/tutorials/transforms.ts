// Transforms — PyTorch's beginner_source/basics/transforms_tutorial.py, ported line for line on the subset of
// FashionMNIST the repository ships (data/fashion-mnist-subset/) instead of a download. torchvision's transforms
// are not part of aten-ts: ToTensor() and Lambda(f) are the plain functions they are for this dataset (ToTensor:
// uint8 [H, W] -> float32 [1, H, W] / 255, which FashionMNIST.toTensor is; Lambda(f): f). The tutorial prints
// nothing; its dataset's first samples are printed to check the transforms (as in its twin
// tools/golden/tutorials/transforms.py). Run: npx tsx examples/tutorials/transforms.ts
import { readFileSync } from 'node:fs';
import { torch, type Tensor } from 'aten-ts';
const { FashionMNIST } = torch.utils.data;

const file = (name: string): Uint8Array => readFileSync(new URL(`../../data/fashion-mnist-subset/${name}.gz`, import.meta.url));
const ToTensor = (): ((img: Tensor) => Tensor) => FashionMNIST.toTensor;
const Lambda = <A, B>(f: (a: A) => B): ((a: A) => B) => f;

const ds = new FashionMNIST({
  images: file('train-images-idx3-ubyte'), // root="data", train=True, download=True
  labels: file('train-labels-idx1-ubyte'),
  transform: ToTensor(),
  target_transform: Lambda((y: number) => torch.zeros(10, { dtype: torch.float }).scatter_(0, torch.tensor(y), { value: 1 })),
});

const target_transform = Lambda((y: number) =>
  torch.zeros(10, { dtype: torch.float }).scatter_({ dim: 0, index: torch.tensor(y), value: 1 }),
);

for (let i = 0; i < 3; i++) {
  const [img, one_hot] = ds.getItem(i);
  console.log(img.shape, img.dtype, img.min().item(), img.max().item(), img.mean().item());
  console.log(one_hot);
}
console.log(target_transform(7));
