"""Variety statistics, computed from a real small build's Parquet files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import read_rows, run_script
from warp_cuda_ir import source_facts
from warp_cuda_ir.build import BuildResult
from warp_cuda_ir.card import variety_markdown
from warp_cuda_ir.readback import read_back

FACTS = ["warp_builtins", "program_shape"]


def test_variety_of_a_build(small_build: BuildResult) -> None:
    readback = read_back(small_build.out)
    v = readback.variety
    assert v is not None
    assert readback.num_rows == sum(readback.categories.values()) > 0
    assert 50 <= v.builtins_used < v.builtins_offered
    assert 0.9 <= v.distinct_shape_fraction <= 1.0
    assert v.python_chars.min <= v.python_chars.p50 <= v.python_chars.max
    assert "float32" in v.dtypes
    text = variety_markdown(readback)
    assert text.startswith("| measure | value |") and f"of {v.builtins_offered}" in text


def test_source_facts_erase_names_and_literals_but_not_structure() -> None:
    a = source_facts.analyse("def f(x):\n    y = x * 2.0\n    return wp.sin(y)\n")
    b = source_facts.analyse("def g(u):\n    w = u * 7.5\n    return wp.cos(w)\n")
    c = source_facts.analyse("def g(u):\n    w = u + 7.5\n    return wp.cos(w)\n")
    d = source_facts.analyse("def g(u):\n    w = u + 7.5\n    return wp.cos(w, 1)\n")
    assert a.shape == b.shape != c.shape != d.shape
    # The identity (the row id) keeps names and literals but not layout or comments.
    a2 = source_facts.analyse("def f( x ):  # f\n    y = (x * 2.0)\n\n    return wp.sin(y)\n")
    a3 = source_facts.analyse("def f(x):\n    y = x * 2.5\n    return wp.sin(y)\n")
    assert a.identity == a2.identity != a3.identity != b.identity
    assert a.builtins == ("mul", "sin") and c.builtins == ("add", "cos")
    # Only `wp.` attributes and bare names Warp resolves count; a method of something else does not.
    e = source_facts.analyse("def f(x):\n    return np.sin(x) + abs(x) + x.length()\n")
    assert e.builtins == ("abs", "add")


def test_rows_carry_the_facts_of_their_source(small_build: BuildResult) -> None:
    for row in list(read_rows(small_build.out).values())[:50]:
        facts = source_facts.analyse(row["python_source"])
        assert (tuple(row["warp_builtins"]), row["program_shape"]) == (facts.builtins, facts.shape)


@pytest.mark.slow
def test_script_prints_markdown_and_rejects_a_bad_folder(small_build: BuildResult, tmp_path: Path) -> None:
    ok = run_script("stats", str(small_build.out))
    assert ok.returncode == 0 and "distinct Warp built-ins used" in ok.stdout
    bad = run_script("stats", str(tmp_path))
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and len(bad.stderr.strip().splitlines()) == 1


def test_tile_builtins_and_functions_passed_to_them_are_counted() -> None:
    source = (
        "def f(a: wp.array(dtype=wp.float64)):\n"
        "    t = wp.tile_load(a, shape=8, offset=0)\n"
        "    u = wp.tile_map(wp.sin, t) + wp.tile_ones(shape=8, dtype=wp.float64)\n"
        "    wp.tile_store(a, wp.tile_reduce(wp.max, u), offset=0)\n"
    )
    used = set(source_facts.analyse(source).builtins)
    expected = {"tile_load", "tile_map", "sin", "add", "tile_ones", "tile_store", "tile_reduce", "max"}
    assert used == expected  # the annotation declares the argument: no use of the `array` built-in


def test_annotations_and_literal_signs_are_not_builtin_uses() -> None:
    source = (
        "@wp.kernel\n"
        "def k(a: wp.array(dtype=wp.float32), b: wp.array2d(dtype=float), n: wp.int64):\n"
        "    i = wp.tid()\n"
        "    a[i] = -1.5 + wp.float32(-2) * -a[i]\n"
    )
    assert source_facts.analyse(source).builtins == ("add", "float32", "mul", "neg", "tid")
