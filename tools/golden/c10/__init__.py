"""The parts of tools/golden/gen_c10.py (test/golden/c10.json), one module per block of the fixture."""
