"""The parts of tools/golden/gen_schemas.py (test/golden/schemas.json)."""
