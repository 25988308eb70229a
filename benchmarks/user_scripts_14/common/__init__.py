"""Shared kernel builders of this folder's scripts."""

from .builders import make_clamp, make_damp

__all__ = ["make_clamp", "make_damp"]
