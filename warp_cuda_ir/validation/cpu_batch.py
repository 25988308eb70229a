"""The CPU modules of a batch of rows, compiled by Warp's Clang in few calls before the rows run.

A row's Warp step loads up to three CPU modules: the row's own (CPU compile and run, output digest),
the same module with its backward for the standalone reference launch (the same module when the source
enables backward, as generated rows do), and the gradient check's (float scalars exposed as arrays, widened
to float64 when that generates; the row's own precision otherwise). Each used to be one Clang call of its
own; one translation unit of a batch's modules, each in its own namespace, pays what they share (Warp's
headers, the templates they instantiate) once: 0.29-0.37 core-s per module alone, 0.20-0.32 in one unit,
measured on generated rows (benchmarks/README.md); the rest is Clang optimising each module's own code.
The object file is put in Warp's kernel cache under each module's name, so Warp's own load finds it and
nothing else in the row's step changes: the same code, compiled by the same Clang with the same settings,
so the same annotations (checked on the Parquet of a 64-row pass: byte-identical files).

Failures stay the row's own: a unit that fails is compiled again without the modules Clang's log points
to (or in halves when it points nowhere), and a module that fails, or is left alone, is not put in the
cache: Warp compiles it in the row's step, as before, and the row's stage reports Warp's own error.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from warp_cuda_ir import extraction, warp_session
from warp_cuda_ir.errors import ExtractionError
from warp_cuda_ir.launch import has_launch_record
from warp_cuda_ir.standalone.program import has_backward
from warp_cuda_ir.validation import gradients

_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)", re.MULTILINE)


def _variants(row: Mapping[str, Any], standalone: bool) -> Iterator[tuple[str, bool, bool]]:
    """(source, load with backward, is the gradient check's float64 variant) of the modules the row's step
    loads, as `row.execution_columns`, `standalone.reference_columns` and `gradients.check` load them."""
    yield row["python_source"], False, False
    if not has_launch_record(row):
        return  # nothing runs: the CPU compile alone
    if standalone and has_backward(row, "cpu"):
        yield row["python_source"], True, False
    if row.get("cuda_backward") and row.get("cpu_backward"):
        try:
            yield gradients.expose_parameters(gradients.widen_row(row))[0]["python_source"], True, True
        except Exception:
            yield gradients.expose_parameters(row)[0]["python_source"], True, False


def _module(
    source: str, kernel_name: str | None, backward: bool, known: Mapping[str, Any]
) -> warp_session.CpuModule | None:
    try:
        with warp_session.loaded_kernel(source, kernel_name, backward=backward) as (kernel, _):
            return warp_session.cpu_module(kernel, extraction.CPU_BLOCK_DIM, known)
    except (ExtractionError, SyntaxError):
        return None


def modules_of(rows: Sequence[Mapping[str, Any]], standalone: bool) -> list[warp_session.CpuModule]:
    """The CPU modules the rows' Warp steps will load and Warp's kernel cache lacks, each once."""
    found: dict[str, warp_session.CpuModule] = {}
    for row in rows:
        name = row.get("kernel_name")
        for source, backward, widened in _variants(row, standalone):
            # A variant already found is not generated twice (the reference launch's module is the row's own
            # when the source enables backward); the widened one is always, so that None means it failed.
            module = _module(source, name, backward, () if widened else found)
            if module is None and widened:  # the check falls back to the row's own precision
                module = _module(gradients.expose_parameters(row)[0]["python_source"], name, True, found)
            if module is not None:
                found.setdefault(module.identifier, module)
    return list(found.values())


def _units(modules: list[warp_session.CpuModule]) -> list[list[warp_session.CpuModule]]:
    """Modules grouped into units: equal Clang settings and prelude, no entry point declared twice."""
    units: dict[tuple[Any, ...], list[tuple[set[str], list[warp_session.CpuModule]]]] = {}
    for module in modules:
        key = (module.build_args, extraction.prelude(module.source))
        for symbols, members in units.setdefault(key, []):
            if not symbols & module.symbols:
                symbols |= module.symbols
                members.append(module)
                break
        else:
            units[key].append((set(module.symbols), [module]))
    return [members for groups in units.values() for _, members in groups]


def _unit_source(modules: list[warp_session.CpuModule]) -> tuple[str, list[int]]:
    """One `.cpp` of the modules, each in its own namespace (helpers and structs of two rows share names),
    and the last line of the prelude then of each module. Macros a module defines are undefined after it."""
    prelude = extraction.prelude(modules[0].source)
    parts, ends = [prelude], [prelude.count("\n")]
    for k, module in enumerate(modules):
        body = module.source[len(prelude) :]
        undefs = "".join(f"#undef {name}\n" for name in dict.fromkeys(_DEFINE.findall(body)))
        part = f"\nnamespace warp_cuda_ir_module_{k} {{\n{body}\n}}\n{undefs}"
        parts.append(part)
        ends.append(ends[-1] + part.count("\n"))
    return "".join(parts), ends


def _blamed(log: str, cpp: Path, ends: list[int]) -> set[int]:
    """Modules whose lines Clang's log names (errors, and the notes that say where a template was used)."""
    blamed = set()
    for found in re.finditer(rf"{re.escape(cpp.name)}:(\d+):", log):
        line = int(found.group(1))
        blamed |= {k for k in range(len(ends) - 1) if ends[k] < line <= ends[k + 1]}
    return blamed


def _compile(modules: list[warp_session.CpuModule], scratch: Path, serial: list[int]) -> int:
    """Compile modules in one unit and put them in Warp's kernel cache; those that fail are left out
    (Warp compiles them in the row's step). Returns how many were put in the cache."""
    if len(modules) < 2:
        return 0  # alone, Warp compiles it just as well in the row's step
    serial[0] += 1
    cpp, obj = scratch / f"unit{serial[0]}.cpp", scratch / f"unit{serial[0]}.o"
    source, ends = _unit_source(modules)
    log = warp_session.build_cpu_unit(source, modules[0].build_args, cpp, obj)
    if log is None:
        for module in modules:
            warp_session.add_to_kernel_cache(module, obj)
        obj.unlink()  # the cache holds its own links
        return len(modules)
    blamed = _blamed(log, cpp, ends)
    if blamed and len(blamed) < len(modules):
        return _compile([m for k, m in enumerate(modules) if k not in blamed], scratch, serial)
    half = len(modules) // 2
    return _compile(modules[:half], scratch, serial) + _compile(modules[half:], scratch, serial)


def prebuild(rows: Sequence[Mapping[str, Any]], standalone: bool, workdir: Path) -> int:
    """Compile the CPU modules the rows' Warp steps will load, batched, into Warp's kernel cache; returns
    how many modules it put there."""
    workdir.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=workdir, prefix="clang_"))
    try:
        serial = [0]
        return sum(_compile(unit, scratch, serial) for unit in _units(modules_of(rows, standalone)))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
