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
# meaning-1: programs whose every statement reaches an output (see `meaning`); typed-5 stays selectable.
# meaning-2: outputs anchored on the thread's own inputs, early returns, closer to real kernels' mix.
# meaning-3: built-in draws calibrated to real kernels' mix, outputs written through store helpers.
GENERATOR_VERSION = "meaning-3"
# Names each generator's random stream. A fix that leaves it alone changes only the programs it
# touches (their rows and validation results carry over); a new stream reshuffles every seed.
# meaning-2 draws from meaning-1's stream (see `meaning`: outputs anchored on inputs, early returns, fewer
# float64 values and atomics).
# meaning-3 too (built-in draws calibrated to real kernels, store helpers, component updates): meaning-1's and
# meaning-2's programs are unchanged.
RANDOM_STREAMS = {"typed-5": "typed-4", "meaning-1": "meaning-1", "meaning-2": "meaning-1", "meaning-3": "meaning-1"}
RANDOM_STREAM = RANDOM_STREAMS[GENERATOR_VERSION]
GENERATORS: tuple[str, ...] = tuple(RANDOM_STREAMS)
CATEGORIES: tuple[str, ...] = _categories.CATEGORIES

__all__ = [
    "CATEGORIES",
    "GENERATORS",
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


def synthesize(seed: int, categories: Sequence[str] = CATEGORIES, generator: str = GENERATOR_VERSION) -> KernelProgram:
    """The program for `seed`: deterministic, whatever process or machine runs it."""
    chosen = check_categories(tuple(categories))
    if generator not in RANDOM_STREAMS:
        raise UsageError(f"unknown generator {generator!r}; choose from: {', '.join(GENERATORS)}")
    stream = f"warp_cuda_ir/{RANDOM_STREAMS[generator]}/{seed}"
    rng = random.Random(stream)  # str seeds hash stably
    category = rng.choice(chosen)
    if generator == "typed-5":
        return _categories.generate(rng, category)
    from warp_cuda_ir.synthesis import meaning

    return meaning.generate(stream, rng, category, version=int(generator.removeprefix("meaning-")))
