// Datasets & DataLoaders — PyTorch's beginner_source/basics/data_tutorial.py, ported line for line on the subset of
// FashionMNIST the repository ships (data/fashion-mnist-subset/) instead of a download, with a seed added, as its
// twin tools/golden/tutorials/data.py. matplotlib's lines are left out; what they show is printed instead (the
// sampled labels, the image shapes). The custom Dataset reads the shipped IDX files (labels file, images file)
// where the tutorial reads a CSV of labels and a folder of images, and is then used once.
// Run: npx tsx examples/tutorials/data.ts
import { readFileSync } from 'node:fs';
import { torch, type Tensor } from 'aten-ts';
const { Dataset, FashionMNIST, readIdx } = torch.utils.data;

torch.manual_seed(0);

const file = (name: string): Uint8Array => readFileSync(new URL(`../../data/fashion-mnist-subset/${name}.gz`, import.meta.url));
/** torchvision.transforms.ToTensor (torchvision is not part of aten-ts): uint8 [H, W] -> float32 [1, H, W] / 255. */
const ToTensor = (): ((img: Tensor) => Tensor) => FashionMNIST.toTensor;

const training_data = new FashionMNIST({
  images: file('train-images-idx3-ubyte'),
  labels: file('train-labels-idx1-ubyte'),
  transform: ToTensor(),
});

const test_data = new FashionMNIST({
  images: file('t10k-images-idx3-ubyte'),
  labels: file('t10k-labels-idx1-ubyte'),
  transform: ToTensor(),
});

const labels_map: Record<number, string> = {
  0: 'T-Shirt',
  1: 'Trouser',
  2: 'Pullover',
  3: 'Dress',
  4: 'Coat',
  5: 'Sandal',
  6: 'Shirt',
  7: 'Sneaker',
  8: 'Bag',
  9: 'Ankle Boot',
};
const [cols, rows] = [3, 3];
for (let i = 1; i < cols * rows + 1; i++) {
  const sample_idx = torch.randint(training_data.len(), { size: [1] }).item() as number;
  const [img, label] = training_data.getItem(sample_idx);
  console.log(i, sample_idx, labels_map[label], img.squeeze().shape); // plt.title(labels_map[label]); plt.imshow(img.squeeze())
}

class CustomImageDataset<Y = number> extends Dataset<[Tensor, Y]> {
  img_labels: Tensor;
  img_dir: Tensor;
  transform: ((img: Tensor) => Tensor) | null;
  target_transform: ((label: number) => Y) | null;

  constructor(
    annotations_file: string,
    img_dir: string,
    {
      transform = null,
      target_transform = null,
    }: { transform?: CustomImageDataset<Y>['transform']; target_transform?: CustomImageDataset<Y>['target_transform'] } = {},
  ) {
    super();
    const idx = (name: string): Tensor => {
      const { dims, data } = readIdx(file(name));
      return torch.from(data as Uint8Array).reshape(dims);
    };
    this.img_labels = idx(annotations_file);
    this.img_dir = idx(img_dir);
    this.transform = transform;
    this.target_transform = target_transform;
  }

  override len(): number {
    return this.img_labels.size(0);
  }

  override getItem(idx: number): [Tensor, Y] {
    let image = this.img_dir.index([idx]).unsqueeze(0); // read_image: uint8 [C, H, W]
    let label: number | Y = this.img_labels.index([idx]).item() as number;
    if (this.transform) image = this.transform(image);
    if (this.target_transform) label = this.target_transform(label);
    return [image, label as Y];
  }
}

const custom_data = new CustomImageDataset('t10k-labels-idx1-ubyte', 't10k-images-idx3-ubyte', {
  target_transform: (y) => labels_map[y]!,
});
const [image, label] = custom_data.getItem(3);
console.log(custom_data.len(), image.shape, image.dtype, label);

const { DataLoader } = torch.utils.data;

const train_dataloader = new DataLoader<[Tensor, number], [Tensor, Tensor]>(training_data, { batch_size: 64, shuffle: true });
const test_dataloader = new DataLoader<[Tensor, number], [Tensor, Tensor]>(test_data, { batch_size: 64, shuffle: true });
void test_dataloader;

// Display image and label.
const [train_features, train_labels] = train_dataloader[Symbol.iterator]().next().value as [Tensor, Tensor];
console.log(`Feature batch shape: ${train_features.size()}`);
console.log(`Labels batch shape: ${train_labels.size()}`);
const img = train_features.index([0]).squeeze();
const first_label = train_labels.index([0]);
console.log(img.shape, img.sum().item()); // plt.imshow(img, cmap="gray")
// An f-string formats a 0-dim tensor as its item: `${t}` is str(t), so the item is taken explicitly.
console.log(`Label: ${first_label.item()}`);
