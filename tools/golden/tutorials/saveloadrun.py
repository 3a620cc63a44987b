# Twin of examples/tutorials/saveloadrun.ts: PyTorch's beginner_source/basics/saveloadrun_tutorial.py ("Save and Load
# the Model"), with the tutorials' FashionMNIST network (seeded) in place of torchvision's pretrained VGG16 and the
# file in the system's temporary folder. Saving the whole model (`torch.save(model, ...)`, which pickles the class and
# needs `torch.load(..., weights_only=False)` since PyTorch 2.6) and the ONNX export are left out: aten-ts loads
# checkpoints as weights_only=True does and has no ONNX exporter. The model's output on one input is printed to show
# that the weights came back.
import os
import tempfile

import torch
from torch import nn

torch.manual_seed(0)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


X = torch.rand(1, 28, 28)
path = os.path.join(tempfile.gettempdir(), 'model_weights.pth')

model = NeuralNetwork()  # models.vgg16(pretrained=True)
torch.save(model.state_dict(), path)
print(model(X))

model = NeuralNetwork()  # we do not specify pretrained=True, i.e. do not load default weights
print(model(X))
print(model.load_state_dict(torch.load(path, weights_only=True)))
print(model.eval())
print(model(X))
