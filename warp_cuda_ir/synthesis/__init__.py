"""Synthesis: seed -> Warp program. The one place that decides which generator is used.

The generator is type-directed (see `grammar`): expressions are built from Warp's own
built-in catalogue (`catalogue`), statements and kernels by `kernels`, and each category's
emphasis by `categories` and `idioms`. The first, retired template generator lives in
`benchmarks/templates.py`, for comparison.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from warp_cuda_ir.errors import UsageError
from warp_cuda_ir.synthesis import categories as _categories
from warp_cuda_ir.synthesis.program import Argument, KernelProgram

# typed-3: fewer trivial outputs; typed-4: the `tile` category; typed-5: two CPU faults fixed (svd2 of
# nearly singular matrices; a uint32 wrapped below zero converted to float16).
GENERATOR_VERSION = "typed-5"
# Names the seeds' random stream. A fix that leaves it alone changes only the programs it touches
# (their rows and validation results carry over); a new stream reshuffles every seed.
RANDOM_STREAM = "typed-4"
CATEGORIES: tuple[str, ...] = _categories.CATEGORIES

__all__ = ["CATEGORIES", "GENERATOR_VERSION", "Argument", "KernelProgram", "check_categories", "synthesize"]


def check_categories(categories: Sequence[str] | None) -> tuple[str, ...]:
    """Validate a category selection; None means all. Raises UsageError naming the bad one."""
    if categories is None:
        return CATEGORIES
    chosen = tuple(dict.fromkeys(categories))
    unknown = [c for c in chosen if c not in CATEGORIES]
    if unknown:
        raise UsageError(f"unknown category {unknown[0]!r}; choose from: {', '.join(CATEGORIES)}")
    if not chosen:
        raise UsageError("no category selected")
    return chosen


def synthesize(seed: int, categories: Sequence[str] = CATEGORIES) -> KernelProgram:
    """The program for `seed`: deterministic, whatever process or machine runs it."""
    chosen = check_categories(tuple(categories))
    rng = random.Random(f"warp_cuda_ir/{RANDOM_STREAM}/{seed}")  # str seeds hash stably
    return _categories.generate(rng, rng.choice(chosen))
