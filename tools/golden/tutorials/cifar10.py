# Twin of examples/tutorials/cifar10.ts: PyTorch's beginner_source/blitz/cifar10_tutorial.py ("Training a
# Classifier") on the CPU. CIFAR-10 is replaced by deterministic synthetic 3x32x32 images both languages make the
# same way (torch.rand with a seeded Generator, the class added as a brightness offset so there is something to
# learn): 100 training and 20 test images instead of 50000 and 10000, printing every 10 mini-batches instead of
# 2000; torchvision's ToTensor/Normalize/Compose are plain functions on tensors; num_workers=0; matplotlib's
# lines left out; a seed added; the weights file in the system's temporary folder.
import os
import tempfile

import torch

torch.manual_seed(0)


class SyntheticCIFAR10(torch.utils.data.Dataset):
    """torchvision.datasets.CIFAR10(root='./data', train=train, download=True, transform=transform)."""

    def __init__(self, train=True, transform=None):
        g = torch.Generator().manual_seed(1 if train else 2)
        n = 100 if train else 20
        self.targets = torch.randint(0, 10, (n,), generator=g)
        self.data = torch.rand(n, 3, 32, 32, generator=g) * 0.5 + self.targets.view(-1, 1, 1, 1) / 20
        self.transform = transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        img, target = self.data[i], int(self.targets[i])
        if self.transform is not None:
            img = self.transform(img)
        return img, target


def Normalize(mean, std):
    return lambda img: (img - torch.tensor(mean).view(-1, 1, 1)) / torch.tensor(std).view(-1, 1, 1)


def Compose(transforms):
    def f(img):
        for t in transforms:
            img = t(img)
        return img
    return f


transform = Compose(
    [Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])

trainset = SyntheticCIFAR10(train=True, transform=transform)
trainloader = torch.utils.data.DataLoader(trainset, batch_size=4,
                                          shuffle=True, num_workers=0)

testset = SyntheticCIFAR10(train=False, transform=transform)
testloader = torch.utils.data.DataLoader(testset, batch_size=4,
                                         shuffle=False, num_workers=0)

classes = ('plane', 'car', 'bird', 'cat',
           'deer', 'dog', 'frog', 'horse', 'ship', 'truck')

# get some random training images
dataiter = iter(trainloader)
images, labels = next(dataiter)

# print labels
print(' '.join('%5s' % classes[labels[j]] for j in range(4)))

import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = Net()

import torch.optim as optim

criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

for epoch in range(2):  # loop over the dataset multiple times

    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        # get the inputs; data is a list of [inputs, labels]
        inputs, labels = data

        # zero the parameter gradients
        optimizer.zero_grad()

        # forward + backward + optimize
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()

        # print statistics
        running_loss += loss.item()
        if i % 10 == 9:    # print every 10 mini-batches
            print('[%d, %5d] loss: %.3f' %
                  (epoch + 1, i + 1, running_loss / 10))
            running_loss = 0.0

print('Finished Training')

PATH = os.path.join(tempfile.gettempdir(), 'cifar_net.pth')
torch.save(net.state_dict(), PATH)

dataiter = iter(testloader)
images, labels = next(dataiter)

print('GroundTruth: ', ' '.join('%5s' % classes[labels[j]] for j in range(4)))

net = Net()
net.load_state_dict(torch.load(PATH, weights_only=True))

outputs = net(images)

_, predicted = torch.max(outputs, 1)

print('Predicted: ', ' '.join('%5s' % classes[predicted[j]]
                              for j in range(4)))

correct = 0
total = 0
with torch.no_grad():
    for data in testloader:
        images, labels = data
        outputs = net(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()

print('Accuracy of the network on the 20 test images: %d %%' % (
    100 * correct / total))

class_correct = list(0. for i in range(10))
class_total = list(0. for i in range(10))
with torch.no_grad():
    for data in testloader:
        images, labels = data
        outputs = net(images)
        _, predicted = torch.max(outputs, 1)
        c = (predicted == labels).squeeze()
        for i in range(4):
            label = labels[i]
            class_correct[label] += c[i].item()
            class_total[label] += 1


for i in range(10):
    print('Accuracy of %5s : %2d %%' % (
        classes[i], 100 * class_correct[i] / max(class_total[i], 1)))

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

print(device)
