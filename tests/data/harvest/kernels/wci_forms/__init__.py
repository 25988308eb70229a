"""Fixture package: one module per kernel form the harvester must handle (tests/test_harvest.py)."""
