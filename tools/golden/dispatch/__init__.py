"""The parts of tools/golden/gen_dispatch.py (test/golden/dispatch_scenarios.json, dispatch_test_dispatch.json)."""
