"""Synthesis: seed -> Warp program. The one place that decides which generator is used."""

from __future__ import annotations

from collections.abc import Sequence

from warp_cuda_ir.synthesis import templates
from warp_cuda_ir.synthesis.program import Argument, KernelProgram

GENERATOR_VERSION = templates.GENERATOR_VERSION
CATEGORIES: tuple[str, ...] = templates.CATEGORIES

__all__ = ["CATEGORIES", "GENERATOR_VERSION", "Argument", "KernelProgram", "check_categories", "synthesize"]


def check_categories(categories: Sequence[str] | None) -> tuple[str, ...]:
    """Validate a category selection; None means all. Raises ValueError naming the bad one."""
    if categories is None:
        return CATEGORIES
    chosen = tuple(dict.fromkeys(categories))
    unknown = [c for c in chosen if c not in CATEGORIES]
    if unknown:
        raise ValueError(f"unknown category {unknown[0]!r}; choose from: {', '.join(CATEGORIES)}")
    if not chosen:
        raise ValueError("no category selected")
    return chosen


def synthesize(seed: int, categories: Sequence[str] = CATEGORIES) -> KernelProgram:
    """The program for `seed`: deterministic, whatever process or machine runs it."""
    return templates.generate(seed, tuple(categories))
