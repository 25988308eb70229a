"""Many CPU modules compiled by Warp's Clang in one translation unit, put in Warp's kernel cache.

A module Warp compiles alone pays for what every module shares (Warp's headers, the templates they
instantiate) each time. One unit of many modules, each in its own namespace, pays it once: 0.29-0.37
core-s per module alone, 0.20-0.32 in one unit (generated rows at Warp's default -O2, benchmarks/README.md).
The object file is put in Warp's kernel cache under each module's name, so Warp's own load finds it: the
same code, compiled by the same Clang with the same settings.

Failures stay the module's own: a unit that fails is compiled again without the modules Clang's log points
to (or in halves when it points nowhere), and a module that fails, or is left alone, is not put in the
cache: Warp compiles it when it is loaded, as before, and reports its own error there.

Used by the validation pass (`validation.cpu_batch`: a batch of rows' modules) and the capture's replays
(`capture.replays`: a chunk of records' modules, at the replays' -O0, forward only).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from warp_cuda_ir import extraction, warp_session

_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)", re.MULTILINE)


def units(modules: Sequence[warp_session.CpuModule]) -> list[list[warp_session.CpuModule]]:
    """Modules grouped into units: equal Clang settings and prelude, no entry point declared twice."""
    found: dict[tuple[Any, ...], list[tuple[set[str], list[warp_session.CpuModule]]]] = {}
    for module in modules:
        key = (module.build_args, extraction.prelude(module.source))
        for symbols, members in found.setdefault(key, []):
            if not symbols & module.symbols:
                symbols |= module.symbols
                members.append(module)
                break
        else:
            found[key].append((set(module.symbols), [module]))
    return [members for groups in found.values() for _, members in groups]


def unit_source(modules: Sequence[warp_session.CpuModule]) -> tuple[str, list[int]]:
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
    """Compile modules in one unit and put them in Warp's kernel cache; those that fail are left out.
    Returns how many were put in the cache."""
    if len(modules) < 2:
        return 0  # alone, Warp compiles it just as well when it loads it
    serial[0] += 1
    cpp, obj = scratch / f"unit{serial[0]}.cpp", scratch / f"unit{serial[0]}.o"
    source, ends = unit_source(modules)
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


def compile_into_kernel_cache(modules: Sequence[warp_session.CpuModule], workdir: Path) -> int:
    """Compile `modules` (`warp_session.cpu_module`, each once) in as few Clang calls as their settings
    allow, into Warp's kernel cache; returns how many it put there."""
    workdir.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=workdir, prefix="clang_"))
    try:
        serial = [0]
        return sum(_compile(unit, scratch, serial) for unit in units(modules))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
