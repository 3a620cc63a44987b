// Neural Networks (the 60-minute blitz) — PyTorch's beginner_source/blitz/neural_networks_tutorial.py, ported
// line for line (a seed added; `.data` spelled `.detach()`; the grad_fn objects printed by name, as their Python repr holds an address).
// Run: npx tsx examples/tutorials/neural_networks.ts
import { torch, type Tensor } from 'aten-ts';
const nn = torch.nn;
const F = torch.nn.functional;

torch.manual_seed(0);

class Net extends nn.Module {
  declare conv1: torch.nn.Conv2d;
  declare conv2: torch.nn.Conv2d;
  declare fc1: torch.nn.Linear;
  declare fc2: torch.nn.Linear;
  declare fc3: torch.nn.Linear;

  constructor() {
    super();
    // 1 input image channel, 6 output channels, 5x5 square convolution
    // kernel
    this.conv1 = new nn.Conv2d(1, 6, 5);
    this.conv2 = new nn.Conv2d(6, 16, 5);
    // an affine operation: y = Wx + b
    this.fc1 = new nn.Linear(16 * 5 * 5, 120); // 5*5 from image dimension
    this.fc2 = new nn.Linear(120, 84);
    this.fc3 = new nn.Linear(84, 10);
  }

  override forward(input: Tensor): Tensor {
    // Convolution layer C1: 1 input image channel, 6 output channels,
    // 5x5 square convolution, it uses RELU activation function, and
    // outputs a Tensor with size (N, 6, 28, 28), where N is the size of the batch
    const c1 = F.relu(this.conv1.call(input));
    // Subsampling layer S2: 2x2 grid, purely functional,
    // this layer does not have any parameter, and outputs a (N, 6, 14, 14) Tensor
    const s2 = F.max_pool2d(c1, [2, 2]);
    // Convolution layer C3: 6 input channels, 16 output channels,
    // 5x5 square convolution, it uses RELU activation function, and
    // outputs a (N, 16, 10, 10) Tensor
    const c3 = F.relu(this.conv2.call(s2));
    // Subsampling layer S4: 2x2 grid, purely functional,
    // this layer does not have any parameter, and outputs a (N, 16, 5, 5) Tensor
    let s4 = F.max_pool2d(c3, 2);
    // Flatten operation: purely functional, outputs a (N, 400) Tensor
    s4 = torch.flatten(s4, 1);
    // Fully connected layer F5: (N, 400) Tensor input,
    // and outputs a (N, 120) Tensor, it uses RELU activation function
    const f5 = F.relu(this.fc1.call(s4));
    // Fully connected layer F6: (N, 120) Tensor input,
    // and outputs a (N, 84) Tensor, it uses RELU activation function
    const f6 = F.relu(this.fc2.call(f5));
    // Gaussian layer OUTPUT: (N, 84) Tensor input, and
    // outputs a (N, 10) Tensor
    const output = this.fc3.call(f6);
    return output;
  }
}

const net = new Net();
console.log(net);

const params = [...net.parameters()];
console.log(params.length);
console.log(params[0]!.size()); // conv1's .weight

const input = torch.randn(1, 1, 32, 32);
const out = net.call(input);
console.log(out);

net.zero_grad();
out.backward(torch.randn(1, 10));

let output = net.call(input);
let target = torch.randn(10); // a dummy target, for example
target = target.view(1, -1); // make it the same shape as output
const criterion = new nn.MSELoss();

let loss = criterion.call(output, target);
console.log(loss);

console.log(loss.grad_fn!.name()); // MSELoss
console.log(loss.grad_fn!.next_functions[0]![0]!.name()); // Linear
console.log(loss.grad_fn!.next_functions[0]![0]!.next_functions[0]![0]!.name()); // ReLU

net.zero_grad(); // zeroes the gradient buffers of all parameters

console.log('conv1.bias.grad before backward');
console.log(net.conv1.bias!.grad ?? 'None');

loss.backward();

console.log('conv1.bias.grad after backward');
console.log(net.conv1.bias!.grad);

const learning_rate = 0.01;
// PyTorch: f.data.sub_(f.grad.data * learning_rate); aten-ts has no Tensor.data yet: detach() gives the same
// storage without autograd (it shares the version counter, which .data does not).
for (const f of net.parameters()) f.detach().sub_(f.grad!.detach().mul(learning_rate));

const optim = torch.optim;

// create your optimizer
const optimizer = new optim.SGD(net.parameters(), { lr: 0.01 });

// in your training loop:
optimizer.zero_grad(); // zero the gradient buffers
output = net.call(input);
loss = criterion.call(output, target);
loss.backward();
optimizer.step(); // Does the update
console.log(loss);
console.log(net.call(input));
