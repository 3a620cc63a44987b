# Twin of examples/tutorials/data.ts: PyTorch's beginner_source/basics/data_tutorial.py ("Datasets & DataLoaders")
# on the subset of FashionMNIST the repository ships (data/fashion-mnist-subset/) instead of a download, with a
# seed added. matplotlib's lines are left out; what they show is printed instead (the sampled labels, the image
# shapes). The custom Dataset reads the shipped IDX files (labels file, images file) where the tutorial reads a CSV
# of labels and a folder of images, and is then used once.
import os
import sys

import torch
from torch.utils.data import Dataset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _fashion_mnist import FashionMNIST, _idx

torch.manual_seed(0)

training_data = FashionMNIST(train=True)  # datasets.FashionMNIST(root="data", train=True, download=True, transform=ToTensor())

test_data = FashionMNIST(train=False)  # datasets.FashionMNIST(root="data", train=False, download=True, transform=ToTensor())

labels_map = {
    0: "T-Shirt",
    1: "Trouser",
    2: "Pullover",
    3: "Dress",
    4: "Coat",
    5: "Sandal",
    6: "Shirt",
    7: "Sneaker",
    8: "Bag",
    9: "Ankle Boot",
}
cols, rows = 3, 3
for i in range(1, cols * rows + 1):
    sample_idx = torch.randint(len(training_data), size=(1,)).item()
    img, label = training_data[sample_idx]
    print(i, sample_idx, labels_map[label], img.squeeze().shape)  # plt.title(labels_map[label]); plt.imshow(img.squeeze())


class CustomImageDataset(Dataset):
    def __init__(self, annotations_file, img_dir, transform=None, target_transform=None):
        self.img_labels = _idx(annotations_file)
        self.img_dir = _idx(img_dir)
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.img_labels)

    def __getitem__(self, idx):
        image = self.img_dir[idx].unsqueeze(0)  # read_image: uint8 [C, H, W]
        label = int(self.img_labels[idx])
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


custom_data = CustomImageDataset("t10k-labels-idx1-ubyte", "t10k-images-idx3-ubyte", target_transform=lambda y: labels_map[y])
image, label = custom_data[3]
print(len(custom_data), image.shape, image.dtype, label)

from torch.utils.data import DataLoader

train_dataloader = DataLoader(training_data, batch_size=64, shuffle=True)
test_dataloader = DataLoader(test_data, batch_size=64, shuffle=True)

# Display image and label.
train_features, train_labels = next(iter(train_dataloader))
print(f"Feature batch shape: {train_features.size()}")
print(f"Labels batch shape: {train_labels.size()}")
img = train_features[0].squeeze()
label = train_labels[0]
print(img.shape, img.sum().item())  # plt.imshow(img, cmap="gray")
print(f"Label: {label}")
