"""Which capture jobs run first: most not-yet-reached kernels per expected second, read from the job files.

A capture is cut by its budget, so its order decides its coverage. Running a job is the only way to know
what it launches, but its file says what it can reach: the kernels it defines and the kernels of the target
modules it imports by name (a test of `newton._src.solvers.kamino...` imports that solver; a Warp test
defines its own kernels). Jobs are ordered greedily: next is the one reaching the most kernels no earlier
job reached; jobs reaching nothing new keep their order at the end. Whole-package imports (`import newton`)
count for nothing, or every job would reach everything.

Measured on the default packages (newton, mujoco_warp, warp-lang), see `benchmarks/capture.py`.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from warp_cuda_ir.capture import keys
from warp_cuda_ir.capture.jobs import Job

# Kernels a module defines at its top level (indented ones are mostly docstring examples: warp's
# `_src/builtins.py` has 129 of those and no kernel) ...
_KERNEL = re.compile(r"^@(?:wp|warp)\.kernel\b", re.MULTILINE)
# ... and the launches a job's own file makes: test files build many kernels in factories, so their launch
# calls count them better (measured on 9 warp-lang test files: launches 1-126 where 4-181 kernels got a
# record; top-level kernel definitions 0-118).
_LAUNCH = re.compile(r"\bwp\.launch(?:_tiled)?\(")


@cache
def _kernels_in(path: str) -> int:
    try:
        return len(_KERNEL.findall(Path(path).read_text(errors="replace")))
    except OSError:
        return 0


@cache
def _launches_in(path: str) -> int:
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return 0
    return max(len(_LAUNCH.findall(text)), len(_KERNEL.findall(text)))


def _module_file(sys_path: str, dotted: str) -> Path | None:
    base = Path(sys_path, *dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _package_of(path: Path, sys_path: str) -> list[str]:
    rel = path.resolve().relative_to(Path(sys_path).resolve()).with_suffix("")
    return list(rel.parts[:-1])  # `a/b/c.py` and `a/b/__init__.py` are both in package a.b


_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w, \t]*)|import[ \t]+([\w., \t]+))", re.MULTILINE
)


def reach(path: str | Path, targets: Sequence[keys.Target], counts: Mapping[str, int] | None = None) -> set[str]:
    """Target source files (with kernels) a job file defines or imports by a module name below the package.

    Imports are read with a pattern, not parsed: parsing ~740 job files took 40 s on this machine.
    """
    path = Path(path)
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return set()
    own = str(path.resolve())
    found = {own} if (counts.get(own, 0) if counts is not None else _launches_in(own)) else set()
    target = next((t for t in targets if t.relpath(str(path)) is not None), None)
    names: list[str] = []
    for m in _IMPORT.finditer(text):
        dots, module, imported, plain = m.groups()
        if plain is not None:
            names += [n.split(" as ")[0].strip() for n in plain.split(",")]
            continue
        if dots:
            if target is None:
                continue
            try:
                pkg = _package_of(path, target.sys_path)
            except ValueError:
                continue
            module = ".".join([*pkg[: len(pkg) - (len(dots) - 1)], *([module] if module else [])])
        names.append(module)
        # `from pkg import submodule` names a module too
        names += [f"{module}.{n.split(' as ')[0].strip()}" for n in imported.split(",") if n.strip()]
    for name in set(names):
        if "." not in name:
            continue  # the whole package: reaches everything, tells nothing
        for t in targets:
            file = _module_file(t.sys_path, name)
            if file is None or t.relpath(str(file)) is None or str(file.resolve()) == own:
                continue
            if file.name.startswith("test_") or file.name.endswith("_test.py"):
                continue  # another test file's kernels are its own job's (test_array_subclass imports 536)
            resolved = str(file.resolve())
            if counts.get(resolved, 0) if counts is not None else _kernels_in(resolved):
                found.add(resolved)
    return found


# Expected seconds of a test job (a script's is its time limit), measured on the default packages' capture at
# load ~1-7 on 2 cores, cold and warm Warp kernel caches: warp-lang's 86 test files 11 s on average (median
# 4.8 s, Clang compiling the file's kernels most of it); newton's 17 tests 61 s (6 cut at 180 s);
# mujoco_warp's 5 tests 59 s.
WARP_TEST_S = 10.0
TEST_S = 60.0


def cost(job: Job) -> float:
    """Expected seconds of a job: what orders the plan per second, and the longest first at the start."""
    if job.mode == "unittest" and job.target.startswith("warp."):
        return min(job.time_limit, WARP_TEST_S)
    if job.mode in ("unittest", "pytest"):
        return min(job.time_limit, TEST_S)
    return job.time_limit


# Argument types a launch record refuses (`record.NotStorable`), as they appear in the argument struct of a
# kernel's generated CPU code: a kernel taking one is never replayable, however often a job launches it.
_UNSTORABLE = re.compile(r"indexedarray_t<|fabricarray_t<")
_UINT64_ARGUMENT = re.compile(r"\bwp::uint64 |array_t<wp::uint64>")
_ARGS_STRUCT = re.compile(r"struct wp_args_\w+ \{(.*?)\};", re.DOTALL)
# A uint64 that the kernel's code (its functions included) hands to a mesh, BVH, volume or hash-grid built-in,
# or makes an array from (`wp.array(ptr=...)` is `wp::array_t<T>(ptr, ...)`), is the id or address of an
# object in the captured process: replayed elsewhere it points at nothing. Of the default build's 73 real rows
# refused for a uint64 array or value before these were told apart, 48 hold data and replay `equal` (hash keys,
# bit masks, Warp's tests of uint64 arithmetic), 21 use ids (newton's mesh and BVH contacts, warp's volume and
# mesh kernels), and 4 are refused for another argument.
_ID_USE = re.compile(r"\bwp::((?:tile_)?(?:mesh|bvh|volume|hash_grid)_\w+)\(|= wp::(array_t)<[^;]*>\(")


def id_use(texts: Mapping[str, Any]) -> str | None:
    """How a kernel's generated CPU code (its functions included) uses a uint64 as an id or an address, as the
    Python wrote it (`wp.mesh_query_point`, `wp.array(ptr=...)`), or None."""
    for part in ("cpu_helpers", "cpu_forward"):
        found = _ID_USE.search(texts.get(part) or "")
        if found is not None:
            return f"wp.{found.group(1)}" if found.group(1) else "wp.array(ptr=...)"
    return None


def storable(record: Mapping[str, Any]) -> bool:
    """Whether a harvest record's kernel takes only arguments a launch record can hold (read from its C++):
    no indexed or fabric arrays, and no uint64 that its code uses as an id (`id_use`)."""
    texts = record.get("texts") or {}
    found = _ARGS_STRUCT.search(texts.get("cpu_forward") or "")
    if found is None:
        return True
    arguments = found.group(1)
    if _UNSTORABLE.search(arguments) is not None:
        return False
    return _UINT64_ARGUMENT.search(arguments) is None or id_use(texts) is None


def kernels_per_file(records: Iterable[Mapping[str, Any]], targets: Sequence[keys.Target]) -> dict[str, int]:
    """Harvest records (real rows) per source file, by absolute path: the weights `order` uses when given.

    Records whose kernels take arguments a launch record cannot hold count for nothing: a job reaching only
    those adds launches but no replayable row.
    """
    base = {t.package: Path(t.base) for t in targets}
    counts: dict[str, int] = {}
    for r in records:
        if r["package"] in base and storable(r):
            path = str((base[r["package"]] / r["file"]).resolve())
            counts[path] = counts.get(path, 0) + 1
    return counts


def order(jobs: Sequence[Job], targets: Sequence[keys.Target], counts: Mapping[str, int] | None = None) -> list[Job]:
    """Greedy order: next is the job reaching the most kernels (counted per file) no earlier job reaches,
    per expected second (`cost`).

    `counts`: harvested kernels per file (`kernels_per_file`), what the capture's coverage is measured
    against; without it, kernels are estimated from the files' text.
    """
    reached: dict[int, set[str]] = {}
    for i, job in enumerate(jobs):
        file = Path(job.target) if job.mode in ("path", "pytest") else _module_path(job, targets)
        reached[i] = reach(file, targets, counts) if file is not None else set()
    # Lazy greedy: a job's gain only shrinks as others are chosen, so a stale gain is an upper bound; the
    # top of the heap is re-scored and taken once its fresh gain still beats the next stale one.
    seen: set[str] = set()
    own = {str(Path(job.target).resolve()) for job in jobs if job.mode in ("path", "pytest")}
    own |= {str(f.resolve()) for job in jobs if job.mode == "unittest" and (f := _module_path(job, targets))}

    def weight(file: str) -> int:
        if counts is not None:
            return counts.get(file, 0)
        return _launches_in(file) if file in own else _kernels_in(file)

    heap = [(-sum(weight(f) for f in files) / cost(jobs[i]), i) for i, files in reached.items()]
    heapq.heapify(heap)
    out: list[Job] = []
    rest: list[int] = []
    while heap:
        _, i = heapq.heappop(heap)
        gain = sum(weight(f) for f in reached[i] - seen) / cost(jobs[i])
        if gain == 0:
            rest.append(i)
        elif heap and gain < -heap[0][0]:
            heapq.heappush(heap, (-gain, i))
        else:
            out.append(jobs[i])
            seen |= reached[i]
    return out + [jobs[i] for i in sorted(rest)]


def _module_path(job: Job, targets: Sequence[keys.Target]) -> Path | None:
    for t in targets:
        file = _module_file(t.sys_path, job.target)
        if file is not None:
            return file
    return None
