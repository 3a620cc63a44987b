"""The scenarios of tools/golden/gen_autograd_semantics.py, one module per topic (see that script)."""
