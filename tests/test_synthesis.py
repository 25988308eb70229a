"""The generator: deterministic by seed, every category reachable, every kernel extractable and runnable."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from warp_cuda_ir import extraction, launch, rows, source_facts
from warp_cuda_ir.synthesis import CATEGORIES, catalogue, check_categories, synthesize, typesys

SEEDS = range(300)
NEW_CATEGORIES = {"functions", "structs", "quaternion_transform", "multi_dim", "random", "reduction", "idioms"}


@pytest.fixture(scope="module")
def programs() -> list:
    return [synthesize(s) for s in SEEDS]


def test_same_seed_same_program(programs: list) -> None:
    assert [synthesize(s) for s in range(50)] == programs[:50]


def test_same_program_in_another_process(programs: list) -> None:
    code = (
        "from warp_cuda_ir.synthesis import synthesize; print(repr(synthesize(3).source), repr(synthesize(77).source))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=".").stdout
    assert out.strip() == f"{programs[3].source!r} {programs[77].source!r}"


def test_every_category_is_sampled(programs: list) -> None:
    counts = Counter(p.category for p in programs)
    assert set(counts) == set(CATEGORIES) and NEW_CATEGORIES | {"arithmetic", "atomic", "matrix"} <= set(CATEGORIES)


def test_category_selection_is_respected() -> None:
    assert {synthesize(s, ("matrix", "idioms")).category for s in range(60)} == {"matrix", "idioms"}


def test_every_program_generates_code(programs: list) -> None:
    failures = []
    for seed, program in zip(SEEDS, programs, strict=True):
        try:
            texts = extraction.extract(program.source, program.kernel_name)
            assert texts.kernel_name == program.kernel_name
        except extraction.ExtractionError as e:
            failures.append((seed, str(e)[:200]))
    assert failures == []


def test_launch_record_matches_kernel_signature(programs: list) -> None:
    for program in programs:
        tree = ast.parse(program.source)
        kernel = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == program.kernel_name)
        assert [a.arg for a in kernel.args.args] == [a.name for a in program.arguments]
        assert program.launch_dim and all(d > 0 for d in program.launch_dim)
        tid = next(n for n in ast.walk(kernel) if isinstance(n, ast.Assign) and "wp.tid()" in ast.unparse(n.value))
        targets = tid.targets[0]
        assert (len(targets.elts) if isinstance(targets, ast.Tuple) else 1) == len(program.launch_dim)
        for arg in program.arguments:
            assert arg.kind in ("array", "scalar", "struct") and arg.role in ("in", "out", "inout")
            if arg.kind == "array":
                assert arg.shape and all(n > 0 for n in arg.shape) and "dist" in arg.init
            elif arg.kind == "scalar":
                assert "value" in arg.init and typesys.parse(arg.dtype)
            else:
                assert "fields" in arg.init


def test_programs_use_many_builtins_and_dtypes(programs: list) -> None:
    used = set().union(*(source_facts.analyse(p.source).builtins for p in programs))
    dtypes = {a.dtype for p in programs for a in p.arguments}
    assert len(used) >= 100, sorted(used)
    assert {"float16", "float64", "int64", "uint32", "bool", "vec3", "mat33", "quat", "transform"} <= dtypes


def test_kernels_run_on_cpu_with_finite_outputs() -> None:
    bad = []
    for seed in range(36):  # ~1 s each: Warp compiles every kernel with Clang
        row = rows.make_row(seed, CATEGORIES)
        outputs = launch.run_row(row)
        if any(a.dtype.kind == "f" and not np.isfinite(a).all() for a in outputs.values()):
            bad.append((seed, row["category"]))
    assert bad == []


# Issue #3: outputs that do not depend on the inputs teach a model nothing. Trivial programs among
# seeds 0-511 (benchmarks/trivial.py): typed-2 127 (24.8%), typed-3 17 (3.3%), 1 of them in 0-47.
# The bound leaves room for a few unlucky programs, not for a lost fix (typed-2 would expect ~12).
TRIVIAL_SEEDS = range(48)  # ~1 s each: a CPU compile and launch
TRIVIAL_BOUND = 3


def test_few_programs_have_trivial_outputs() -> None:
    from warp_cuda_ir.validation.trivial import program_trivial_reason

    trivial = {}
    for seed in TRIVIAL_SEEDS:
        reason = program_trivial_reason(synthesize(seed), seed)
        if reason is not None:
            trivial[seed] = reason
    assert len(trivial) <= TRIVIAL_BOUND, trivial


def test_catalogue_is_read_from_warp() -> None:
    from warp._src import context

    assert catalogue.offered_builtins() == {k for k in context.builtin_functions if not k.startswith("_")}
    assert len(catalogue.signatures()) >= 100 and not (set(catalogue.signatures()) & catalogue.DENY)


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        (["nope"], "unknown category 'nope'"),
        ([], "no category selected"),
        (["math", "tile"], "unknown category 'tile'"),
    ],
)
def test_bad_categories_are_rejected(chosen: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_categories(chosen)
    with pytest.raises(ValueError, match=message):
        synthesize(0, chosen)


# Warp 1.19 retypes a compile-time constant that is cast (`wp.int64(kk)` of an unrolled loop counter,
# `wp.float64(c)` of `c = (--0.93)`) for all its later reads, which broke codegen on 5 of 16,384 seeds of
# generator typed-1. So no generated variable may be constant-valued.
def test_no_variable_holds_a_compile_time_constant() -> None:
    literal = re.compile(r"^\s*(\w+) = [\s()+-]*(\d+(\.\d*)?|True|False)[\s()]*$")
    unrolled = re.compile(r"^\s*for (\w+) in range\([\d, -]+\):$")
    loops = 0
    for seed in range(300):
        lines = synthesize(seed).source.splitlines()
        for n, line in enumerate(lines):
            assert not literal.match(line), f"seed {seed}: {line.strip()}"
            match = unrolled.match(line)
            trips = len(range(*map(int, line.split("range(")[1].rstrip("):").split(",")))) if match else 0
            if match and trips <= extraction.module_options("cuda")["max_unroll"]:  # Warp unrolls it
                loops += 1
                counter = match.group(1)
                # a read of the counter not inside int(...), and not a keyword argument of that name
                bare = re.compile(rf"(?<![\w.])(?<!int\(){counter}\b(?!\s*=(?!=))")
                assert not [x for x in lines[n + 1 :] if bare.search(x)], f"seed {seed}: counter {counter} read bare"
    assert loops > 20  # the property was exercised
