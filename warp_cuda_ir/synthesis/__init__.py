"""Synthesis: seed -> Warp program, with the package's one generator (`meaning`).

The generator is type-directed: expressions are built from Warp's own built-in catalogue
(`catalogue`) by the typed grammar (`grammar`), statements and kernels by `kernels`, each
category's emphasis by `categories`, `idioms` and `tiles`, and `meaning` makes every statement
count (see its docstring). Earlier generators' rows are reproducible from the git tag
`generators-before-removal`; every row names its generator in `generator_version`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from warp_cuda_ir.errors import UsageError
from warp_cuda_ir.synthesis import categories as _categories
from warp_cuda_ir.synthesis.program import Argument, KernelProgram

GENERATOR_VERSION = "meaning-5"
# The name of the random stream every seed draws from (`warp_cuda_ir/<stream>/<seed>`), fixed since the
# stream was first used: a fix that leaves it alone changes only the programs it touches, a new name would
# reshuffle every seed.
RANDOM_STREAM = "meaning-1"
CATEGORIES: tuple[str, ...] = _categories.CATEGORIES

__all__ = [
    "CATEGORIES",
    "GENERATOR_VERSION",
    "Argument",
    "KernelProgram",
    "check_categories",
    "synthesize",
]


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
    stream = f"warp_cuda_ir/{RANDOM_STREAM}/{seed}"
    rng = random.Random(stream)  # str seeds hash stably
    category = rng.choice(chosen)
    from warp_cuda_ir.synthesis import meaning

    return meaning.generate(stream, rng, category)
