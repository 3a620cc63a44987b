# bench/compare: the PyTorch worker. A long-lived Python process run by bench/compare.ts as
#   python bench/compare/torch_worker.py --threads N          (serves the line protocol of bench/compare/protocol.ts)
#   python bench/compare/torch_worker.py --first-op           (one fresh-process `import torch` + first add, then exits)
# It mirrors worker_host.ts (calibrate, median of up to 5 batches) and the workloads of aten_worker.ts, op for op.
# PyTorch's CPU ops are synchronous: a result exists when the call returns.

import json
import sys
import time

PREFIX = "@@compare "

FULL = dict(add=10_000_000, mul=1_000_000, sum=10_000_000, softmax=1000, matmul=1024, matmulSmall=256,
            conv=dict(n=8, c=3, h=32, w=32, oc=16, k=3), mlp=dict(batch=64, inp=784, hidden=128, out=10))
QUICK = dict(add=1000, mul=1000, sum=1000, softmax=16, matmul=32, matmulSmall=16,
             conv=dict(n=1, c=3, h=8, w=8, oc=4, k=3), mlp=dict(batch=4, inp=16, hidden=8, out=10))


def send(obj):
    sys.stdout.write(PREFIX + json.dumps(obj) + "\n")
    sys.stdout.flush()


def first_op():
    t0 = time.perf_counter()
    import torch
    t1 = time.perf_counter()
    torch.add(torch.tensor([1.5]), torch.tensor([2.5]))
    t2 = time.perf_counter()
    send({"import_ms": (t1 - t0) * 1e3, "first_op_ms": (t2 - t0) * 1e3})


def build(torch, wid, s):
    torch.manual_seed(0)
    if wid == "add_out_1e7":
        a, b, out = torch.randn(s["add"]), torch.randn(s["add"]), torch.empty(s["add"])
        return lambda: torch.add(a, b, out=out)
    if wid == "mul_1e6":
        a, b = torch.randn(s["mul"]), torch.randn(s["mul"])
        return lambda: torch.mul(a, b)
    if wid == "exp_1e6":
        a = torch.randn(s["mul"])
        return lambda: torch.exp(a)
    if wid == "sum_1e7":
        a = torch.randn(s["sum"])
        return lambda: torch.sum(a)
    if wid == "softmax_1000":
        a = torch.randn(s["softmax"], s["softmax"])
        return lambda: torch.softmax(a, 1)
    if wid == "matmul_256":
        a, b = torch.randn(s["matmulSmall"], s["matmulSmall"]), torch.randn(s["matmulSmall"], s["matmulSmall"])
        return lambda: torch.matmul(a, b)
    if wid == "matmul_1024":
        a, b = torch.randn(s["matmul"], s["matmul"]), torch.randn(s["matmul"], s["matmul"])
        return lambda: torch.matmul(a, b)
    if wid in ("conv2d_fwd", "conv2d_fwd_bwd"):
        c = s["conv"]
        x, w = torch.randn(c["n"], c["c"], c["h"], c["w"]), torch.randn(c["oc"], c["c"], c["k"], c["k"])
        if wid == "conv2d_fwd":
            return lambda: torch.conv2d(x, w, None, 1, 1)
        x.requires_grad_()
        w.requires_grad_()
        return lambda: torch.autograd.grad(torch.conv2d(x, w, None, 1, 1).sum(), [x, w])
    if wid == "mlp_sgd_step":
        m = s["mlp"]
        x, y = torch.randn(m["batch"], m["inp"]), torch.randint(0, m["out"], (m["batch"],))
        w1 = (torch.randn(m["inp"], m["hidden"]) * 0.05).requires_grad_()
        b1 = torch.zeros(m["hidden"]).requires_grad_()
        w2 = (torch.randn(m["hidden"], m["out"]) * 0.05).requires_grad_()
        b2 = torch.zeros(m["out"]).requires_grad_()
        params = [w1, b1, w2, b2]

        def step():
            loss = torch.nn.functional.cross_entropy(x.matmul(w1).add(b1).relu().matmul(w2).add(b2), y)
            loss.backward()
            with torch.no_grad():
                for p in params:
                    p.sub_(p.grad.mul(0.01))
                    p.grad = None

        return step
    if wid == "add1":
        a, b = torch.tensor([1.5]), torch.tensor([2.5])
        return lambda: torch.add(a, b)
    if wid == "add1_grad":
        a, b = torch.tensor([1.5], requires_grad=True), torch.tensor([2.5])
        return lambda: torch.add(a, b)
    return None


def time_calls(fn, n):
    t0 = time.perf_counter_ns()
    for _ in range(n):
        fn()
    return time.perf_counter_ns() - t0


def calibrate(fn, target):
    n = 1
    while True:
        t = max(time_calls(fn, n), 1)
        if t >= target / 20 or n >= 1e8:
            return max(1, -(-n * target // t))
        n = int(min(n * max(2, -(-target // 20 // t)), 1e8))


def time_iters(fn, iters):
    batches = min(5, iters)
    per_call = []
    for b in range(batches):
        n = iters // batches + (1 if b < iters % batches else 0)
        per_call.append(time_calls(fn, n) / n)
    per_call.sort()
    return per_call[len(per_call) // 2]


def serve(threads):
    import torch

    torch.set_num_threads(threads)
    send({"ready": True, "info": {"version": torch.__version__, "threads": str(torch.get_num_threads()),
                                  "python": sys.version.split()[0]}})
    bodies = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            if req["op"] == "exit":
                break
            if req["op"] == "setup":
                s = QUICK if req["quick"] else FULL
                statuses = {}
                for wid in req["workloads"]:
                    try:
                        fn = build(torch, wid, s)
                        if fn is None:
                            statuses[wid] = {"ok": False, "kind": "unsupported", "reason": "no such workload"}
                            continue
                        n, spent = 0, 0  # warm-up: at least 2 calls and warmup_ns
                        while n < 2 or spent < req["warmup_ns"]:
                            spent += time_calls(fn, 1)
                            n += 1
                        bodies[wid] = fn
                        statuses[wid] = {"ok": True}
                    except Exception as e:  # noqa: BLE001 - any failure is reported, not raised
                        statuses[wid] = {"ok": False, "kind": "fails", "reason": str(e).split("\n")[0][:200]}
                send({"setup": statuses})
            elif req["op"] == "calibrate":
                send({"iters": int(calibrate(bodies[req["workload"]], int(req["target_ns"])))})
            elif req["op"] == "run":
                send({"ns": time_iters(bodies[req["workload"]], int(req["iters"]))})
            else:
                send({"error": "unknown op " + str(req["op"])})
        except Exception as e:  # noqa: BLE001
            send({"error": str(e).split("\n")[0][:200]})


if __name__ == "__main__":
    if "--first-op" in sys.argv:
        first_op()
    else:
        serve(int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1)
