"""The generator: deterministic by seed, every category reachable, every kernel extractable."""

from __future__ import annotations

from collections import Counter

import pytest

from warp_cuda_ir import extraction
from warp_cuda_ir.synthesis import CATEGORIES, check_categories, synthesize

SEEDS = range(300)


def test_same_seed_same_program() -> None:
    assert [synthesize(s) for s in range(50)] == [synthesize(s) for s in range(50)]


def test_all_ten_categories_are_sampled() -> None:
    counts = Counter(synthesize(s).category for s in SEEDS)
    assert set(counts) == set(CATEGORIES) and len(CATEGORIES) >= 10


def test_category_selection_is_respected() -> None:
    assert {synthesize(s, ("matrix", "atomic")).category for s in range(60)} == {"matrix", "atomic"}


def test_every_program_generates_code() -> None:
    for seed in SEEDS:
        program = synthesize(seed)
        texts = extraction.extract(program.source, program.kernel_name)
        assert texts.kernel_name == program.kernel_name


def test_launch_record_matches_kernel_signature() -> None:
    import ast

    for seed in range(100):
        program = synthesize(seed)
        tree = ast.parse(program.source)
        kernel = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == program.kernel_name)
        assert [a.arg for a in kernel.args.args] == [a.name for a in program.arguments]
        assert program.launch_dim and all(d > 0 for d in program.launch_dim)


@pytest.mark.parametrize(("chosen", "message"), [(["nope"], "unknown category 'nope'"), ([], "no category selected")])
def test_bad_categories_are_rejected(chosen: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_categories(chosen)
