"""Shared helpers for my scripts."""

from .common import *  # noqa: F401,F403
from .forces import spring_force, drag_force, clear_forces

__all__ = ["Particle", "SimParams", "safe_normalize", "spring_force", "drag_force", "clear_forces", "EPS", "GRAVITY"]
