"""Which kernel a Warp kernel object is, the same in the harvest and in the capture's launch hook.

A launch recorded by the capture is matched to a harvested record by this identity (file, line, qualified
name, overload and `kernel_digest`), so both compute it here; `capture.jobs.code_version` hashes this file.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any


def kernel_digest(func: Any) -> str:
    """Tells apart the kernels one function made: a kernel written inside a function (a factory) is made
    again per call with the values it captures, and with the types its annotations read
    (`def fill(a: wp.array(dtype=dtype), value: dtype)` captures nothing: two calls with int32 and float32
    made two kernels of one name and line whose launches were matched to one record, and the float32
    launch failed its replay on the int32 record). A kernel of a module's top level has one definition."""
    if "<locals>" not in getattr(func, "__qualname__", ""):
        return closure_digest(func)
    # Types by their own names: a script's struct is `__main__.S` when the capture runs the script and has
    # the script's module name in the harvest.
    types = _QUALIFIED.sub(r"\1", _annotations(func))
    return closure_digest(func) + "|" + hashlib.sha1(types.encode()).hexdigest()[:12]


_QUALIFIED = re.compile(r"\b(?:[\w<>]+\.)+(\w+)")


def made_with(func: Any) -> str:
    """What a factory's kernel was made with: the values it captures and its annotations (a type the
    factory made, `vec_t`, is read only by an annotation, so no closure cell holds it)."""
    return closure_digest(func) + "|" + _annotations(func)


def _annotations(func: Any) -> str:
    return stable_repr(sorted((getattr(func, "__annotations__", {}) or {}).items()))


def closure_digest(func: Any) -> str:
    """Tells apart kernels one factory made with different captured values (stable across processes)."""
    cells = getattr(func, "__closure__", None) or ()
    if not cells:
        return "-"
    h = hashlib.sha1()
    for name, cell in zip(func.__code__.co_freevars, cells, strict=False):
        try:
            value = cell.cell_contents
        except ValueError:
            value = None
        h.update(f"{name}={stable_repr(value)};".encode())
    return h.hexdigest()[:12]


def stable_repr(value: Any, depth: int = 0) -> str:
    if depth > 3:
        return "..."
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return "(" + ",".join(stable_repr(v, depth + 1) for v in value[:64]) + ")"
    func = getattr(value, "func", None) if not callable(getattr(value, "__code__", None)) else value
    code = getattr(func, "__code__", None)
    if code is not None:
        inner = closure_digest(func)
        return f"<{type(value).__name__} {code.co_filename}:{code.co_firstlineno} {inner}>"
    name = getattr(value, "__qualname__", None) or getattr(value, "key", None)
    if name is not None:
        return f"<{type(value).__name__} {getattr(value, '__module__', '')}.{name}>"
    try:
        text = repr(value)
    except Exception:
        text = type(value).__name__
    return text if " at 0x" not in text else type(value).__name__
