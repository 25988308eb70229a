"""Engines schedule shards; every engine runs the same `generation.run_shard`."""
