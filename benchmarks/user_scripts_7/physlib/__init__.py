"""Tiny physics helpers shared by the scripts."""
