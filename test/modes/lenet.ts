// The LeNet-like CNN of tools/golden/gen_modes.py (and of `npm start`), for the dispatch-mode tests.
import type { Tensor } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';

const F = nn.functional;

export class LeNet extends nn.Module {
  declare conv1: nn.Conv2d;
  declare conv2: nn.Conv2d;
  declare fc1: nn.Linear;
  declare fc2: nn.Linear;
  declare fc3: nn.Linear;
  constructor() {
    super();
    this.conv1 = new nn.Conv2d(1, 6, 5);
    this.conv2 = new nn.Conv2d(6, 16, 5);
    this.fc1 = new nn.Linear(256, 120);
    this.fc2 = new nn.Linear(120, 84);
    this.fc3 = new nn.Linear(84, 10);
  }
  override forward(x: Tensor): Tensor {
    x = F.max_pool2d(F.relu(this.conv1.call(x)), 2);
    x = F.max_pool2d(F.relu(this.conv2.call(x)), 2);
    x = x.flatten(1);
    x = F.relu(this.fc1.call(x));
    x = F.relu(this.fc2.call(x));
    return this.fc3.call(x);
  }
}
