"""The live-table probe of tools/golden/gen_dispatch.py (informational): logging kernels and fallbacks, and a
redispatch with each single-key set to see which live slot of OperatorEntry's dispatch table answers.
"""
import torch

from dispatch.common import C, probe_keyset


# Live-table probe (informational).  The dumps recompute every entry from scratch;
# calls read the incrementally maintained live table.  We redispatch with the
# single-key set {k}, which reads exactly live slot k.  Our kernels/fallbacks are
# Python functions that log (label, keyset); a slot is "ours" if the first logged
# call has exactly the probe key set (a fallback that redispatches would pass a
# different set).
# ---------------------------------------------------------------------------------
CALLS = []


def make_kernel(label):
    def kernel(ks, x):
        CALLS.append((label, str(ks)))
        return x
    return kernel


def make_fallback(label):
    def fallback(ks, op, *args, **kwargs):
        CALLS.append((label, str(ks)))
        return args[0] if args else None
    return fallback


def probe_live(op_name, keys, redispatching_keys):
    handle = C._dispatch_find_schema_or_throw(op_name, "")
    x = torch.zeros(1)
    live = {}
    for k in keys:
        ks = probe_keyset(k)
        CALLS.clear()
        label = "other"
        try:
            handle.redispatch_boxed(ks, x)
            if CALLS and CALLS[0][1] == str(ks):
                label = CALLS[0][0]
        except Exception as e:  # noqa: BLE001 - classification only
            if CALLS and CALLS[0][1] == str(ks):
                label = CALLS[0][0]
            elif not CALLS and "fallthrough_kernel was executed" in str(e):
                # Either slot k itself is a fallthrough, or slot k is a built-in
                # fallback (autograd) that redispatched into a fallthrough slot.
                # The two cannot be told apart from Python: report the latter as
                # "other" (see expected_live / README).
                label = "fallthrough" if k not in redispatching_keys else "other"
        live[k] = label
    CALLS.clear()
    return live


def expected_live(computed, keys, labels_by_debug):
    exp = {}
    for k in keys:
        e = computed.get(k)
        if e is None:
            exp[k] = "other"
        elif e["fallthrough"]:
            exp[k] = "fallthrough"
        else:
            exp[k] = labels_by_debug.get(e["debug"], "other")
    return exp
