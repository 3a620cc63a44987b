"""bench/jobs: the PyTorch worker, twin of bench/jobs/aten_worker.ts. A long-lived process started by bench/jobs.ts
for one job:
    python bench/jobs/torch_jobs.py --threads N
It serves the line protocol of bench/jobs/protocol.ts (sizes arrive with the setup request). The models mirror
bench/jobs/models.ts module for module; with `save` in the setup request it writes the freshly initialised
weights and the job's data with torch.save, which the aten-ts worker reads with its torch.load, so both sides
train the same weights on the same data. LeNet is tools/golden/gen_train.py's, as bench/train_epoch.py runs it.
"""
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'compare'))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'tools', 'golden'))
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch_worker import calibrate, send, time_calls, time_iters  # noqa: E402,F401

MICRO_OPS = ['mul', 'softmax', 'exp', 'add1']


class BasicBlock(nn.Module):
    """torchvision.models.resnet.BasicBlock."""

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + identity)


class ResNet18(nn.Module):
    """torchvision.models.resnet18() (default initialisation of each module; no zero_init_residual)."""

    def __init__(self, num_classes=1000):
        super().__init__()
        self.inplanes = 64
        self.conv1 = nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        self.layer1 = self._layer(64, 1)
        self.layer2 = self._layer(128, 2)
        self.layer3 = self._layer(256, 2)
        self.layer4 = self._layer(512, 2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512, num_classes)

    def _layer(self, planes, stride):
        downsample = None
        if stride != 1 or self.inplanes != planes:
            downsample = nn.Sequential(nn.Conv2d(self.inplanes, planes, 1, stride=stride, bias=False), nn.BatchNorm2d(planes))
        first = BasicBlock(self.inplanes, planes, stride, downsample)
        self.inplanes = planes
        return nn.Sequential(first, BasicBlock(planes, planes))

    def forward(self, x):
        x = self.maxpool(F.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def encoder(d_model, nhead, ff, dropout, layers):
    layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=ff, dropout=dropout, batch_first=True)
    return nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)


class EncoderClassifier(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.encoder = encoder(s['d_model'], s['nhead'], s['ff'], s['dropout'], s['layers'])
        self.head = nn.Linear(s['d_model'], s['classes'])

    def forward(self, x):
        return self.head(self.encoder(x).mean(1))


class CausalLM(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.tok = nn.Embedding(s['vocab'], s['d_model'])
        self.pos = nn.Embedding(s['ctx'], s['d_model'])
        self.blocks = encoder(s['d_model'], s['nhead'], s['ff'], s['dropout'], s['layers'])
        self.ln_f = nn.LayerNorm(s['d_model'])
        self.head = nn.Linear(s['d_model'], s['vocab'])
        self.register_buffer('mask', nn.Transformer.generate_square_subsequent_mask(s['ctx']), persistent=False)

    def forward(self, idx):
        t = idx.size(1)
        x = self.tok(idx) + self.pos(torch.arange(t))
        return self.head(self.ln_f(self.blocks(x, mask=self.mask, is_causal=True)))


def lm_loss(model, tokens):
    ctx = tokens.size(1) - 1
    logits = model(tokens[:, :ctx])
    return F.cross_entropy(logits.reshape(-1, logits.size(2)), tokens[:, 1:].reshape(-1))


def mlp(widths):
    layers = []
    for i in range(len(widths) - 1):
        if i > 0:
            layers.append(nn.ReLU())
        layers.append(nn.Linear(widths[i], widths[i + 1]))
    return nn.Sequential(*layers)


def train_step(model, opt, loss_fn):
    def step():
        opt.zero_grad()
        loss = loss_fn()
        loss.backward()
        opt.step()
        return loss.item()
    return step


def profiled(steps, body):
    """torch.profiler around body(start, stop), which runs `steps` steps and returns their wall ms: the operators'
    self CPU time per step (as aten_worker.ts's `profiled`)."""
    prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU])
    ms = body(prof.start, prof.stop)
    ops = {e.key: {'self_ms': e.self_cpu_time_total / 1e3 / steps, 'calls': e.count / steps}
           for e in prof.key_averages() if not e.is_user_annotation}
    return {'steps': steps, 'step_ms': ms / steps, 'ops': ops}


def timed_steps(step, steps, start, stop):
    start()
    t = time.perf_counter()
    for _ in range(steps):
        step()
    ms = (time.perf_counter() - t) * 1e3
    stop()
    return ms


class StepJob:
    def __init__(self, rid, step, warmup, note=None):
        self.rid, self.step, self.note = rid, step, note
        torch.manual_seed(1)  # what dropout draws, from here on as in aten_worker.ts (after the weights and data)
        self.losses = [step() for _ in range(warmup)]

    def profile(self, steps):
        return profiled(steps, lambda start, stop: timed_steps(self.step, steps, start, stop))

    def run(self, steps, budget_ms):
        times = []
        start = time.perf_counter()
        while len(times) < steps and (len(times) < 3 or (time.perf_counter() - start) * 1e3 < budget_ms):
            t = time.perf_counter()
            self.step()
            times.append((time.perf_counter() - t) * 1e3)
        times.sort()
        mid = len(times) // 2
        ms = times[mid] if len(times) % 2 else (times[mid - 1] + times[mid]) / 2
        return {self.rid: {'ms': ms, 'steps': len(times)}}


class LeNetJob:
    """bench/train_epoch.py's epoch: a fresh model (seed 0), SGD momentum 0.9, DataLoader shuffled with seed 0."""

    def __init__(self, s):
        from torch.utils.data import DataLoader, TensorDataset
        from gen_train import DATA, LeNet, idx
        x = idx(os.path.join(DATA, 'train-images-idx3-ubyte.gz')).unsqueeze(1).float() / 255
        y = idx(os.path.join(DATA, 'train-labels-idx1-ubyte.gz')).long()
        self.s, self.size = s, len(y)
        self.make = lambda: DataLoader(TensorDataset(x, y), batch_size=s['batch'], shuffle=True,
                                       generator=torch.Generator().manual_seed(0))
        self.LeNet = LeNet
        self.note = None
        self.losses = self.epoch(s['warmup'])[2]

    def profile(self, steps):
        # steps 2..steps + 1 of a fresh epoch, as aten_worker.ts profiles it
        def body(start, stop):
            marks = {}

            def on_step(done):
                if done == 1:
                    start()
                    marks['t0'] = time.perf_counter()
                elif done == steps + 1:
                    marks['ms'] = (time.perf_counter() - marks['t0']) * 1e3
                    stop()
            self.epoch(steps + 1, on_step)
            return marks['ms']
        return profiled(steps, body)

    def epoch(self, max_steps, on_step=None):
        torch.manual_seed(0)
        model = self.LeNet()
        opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        t0 = t1 = 0.0
        done, losses = 0, []
        for xb, yb in self.make():
            opt.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            losses.append(loss.item())
            t1 = time.perf_counter()
            if done == 0:
                t0 = t1
            done += 1
            if on_step is not None:
                on_step(done)
            if max_steps is not None and done >= max_steps:
                break
        return t0, t1, losses

    def run(self, _steps, _budget_ms):
        t0, t1, losses = self.epoch(self.s['max_steps'])
        done = len(losses)
        images = self.size if self.s['max_steps'] is None else done * self.s['batch']
        return {'lenet': {'ms': (t1 - t0) * 1e3 * done / (done - 1), 'steps': done, 'images': images}}


class MicroJob:
    def __init__(self, s):
        a, b = torch.randn(s['mul']), torch.randn(s['mul'])
        m = torch.randn(s['softmax'], s['softmax'])
        one, two = torch.tensor([1.5]), torch.tensor([2.5])
        self.bodies = {'mul': lambda: torch.mul(a, b), 'softmax': lambda: torch.softmax(m, 1),
                       'exp': lambda: torch.exp(a), 'add1': lambda: torch.add(one, two)}
        for op in MICRO_OPS:
            for _ in range(s['warmup']):
                self.bodies[op]()
        self.iters = {}
        self.losses = []
        self.note = None

    def run(self, _steps, budget_ms):
        out = {}
        for op in MICRO_OPS:
            if op not in self.iters:
                self.iters[op] = int(calibrate(self.bodies[op], int(budget_ms * 1e6)))
            ns = time_iters(self.bodies[op], self.iters[op])
            out[op] = {'ms': ns / 1e6, 'steps': self.iters[op]}
        return out


def build(req):
    job, s = req['job'], req['sizes']
    torch.manual_seed(0)
    if job == 'lenet':
        return LeNetJob(s['lenet'])
    if job == 'micro':
        return MicroJob(s['micro'])
    data = {}
    if job == 'encoder':
        e = s['encoder']
        model = EncoderClassifier(e)
        data = {'x': torch.randn(e['batch'], e['seq'], e['d_model']), 'y': torch.randint(0, e['classes'], (e['batch'],))}
    elif job == 'decoder':
        d = s['decoder']
        model = CausalLM(d)
        data = {'tokens': torch.randint(0, d['vocab'], (d['batch'], d['ctx'] + 1))}
    elif job in ('mlp', 'mlp_wide'):
        m = s[job]
        model = mlp(m['widths'])
        data = {'x': torch.randn(m['batch'], m['widths'][0]), 'y': torch.randint(0, m['widths'][-1], (m['batch'],))}
    elif job == 'resnet18':
        r = s['resnet18']
        model = ResNet18()
        data = {'x': torch.randn(r['batch'], 3, r['image'], r['image'])}
    else:
        raise ValueError('no job ' + job)
    if req.get('save'):
        torch.save({'state': model.state_dict(), **data}, req['save'])
    if job == 'encoder':
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        return StepJob(job, train_step(model, opt, lambda: F.cross_entropy(model(data['x']), data['y'])), s[job]['warmup'])
    if job == 'decoder':
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        return StepJob(job, train_step(model, opt, lambda: lm_loss(model, data['tokens'])), s[job]['warmup'])
    if job in ('mlp', 'mlp_wide'):
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        return StepJob(job, train_step(model, opt, lambda: F.cross_entropy(model(data['x']), data['y'])), s[job]['warmup'])
    model.eval()

    def forward():
        with torch.no_grad():
            return model(data['x']).abs().mean().item()
    return StepJob(job, forward, s[job]['warmup'])


def serve(threads):
    torch.set_num_threads(threads)
    send({'ready': True, 'info': {'version': torch.__version__, 'threads': str(torch.get_num_threads()),
                                  'python': sys.version.split()[0]}})
    job = None
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            if req['op'] == 'exit':
                break
            if req['op'] == 'setup':
                job = build(req)
                reply = {'losses': [x if math.isfinite(x) else None for x in job.losses]}
                if job.note:
                    reply['note'] = job.note
                send({'setup': reply})
            elif req['op'] == 'run':
                send({'run': job.run(int(req['steps']), float(req['budget_ms']))})
            elif req['op'] == 'profile':
                if not hasattr(job, 'profile'):
                    raise ValueError('no profile for job ' + str(req['job']))
                send({'profile': job.profile(int(req['steps']))})
            else:
                send({'error': 'unknown op ' + str(req['op'])})
        except Exception as e:  # noqa: BLE001 - reported to the coordinator, not raised
            send({'error': (type(e).__name__ + ': ' + str(e)).split('\n')[0][:300]})


if __name__ == '__main__':
    serve(int(sys.argv[sys.argv.index('--threads') + 1]) if '--threads' in sys.argv else 1)
