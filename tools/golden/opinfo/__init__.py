"""The parts of tools/golden/gen_opinfo.py (test/golden/opinfo/)."""
