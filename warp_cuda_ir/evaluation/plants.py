"""Candidates that are wrong on purpose, to check that a checker catches them (tests, benchmarks, users).

Each plant rewrites a row's own `cpu_forward` or `cpu_backward` text. The first three make the arrays the
column is judged by (outputs for the forward, input adjoints for the backward) degenerate: the kernel fills
them and returns before doing its work. `operator` changes one arithmetic call chosen by a seed: the
smallest slip a model makes.

- `zeros`: every judged array set to zero bytes;
- `constant`: every judged array filled with one byte pattern (0x41: every component the same value);
- `copy`: every judged array that an input of the same storage type and size exists for gets its bytes
  (None when no input fits: the row has no such plant);
- `operator`: one add/sub swapped (`wp::add` <-> `wp::sub` in the forward, `wp::adj_add` <-> `wp::adj_sub` in
  the backward's reverse pass), among the calls a swap can change (`_operator_spots`); None when there is none.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from warp_cuda_ir.standalone.program import INPUT_DATA

PLANTS: tuple[str, ...] = ("zeros", "constant", "copy", "operator")
_DIGEST = re.compile(r'wp_digest<(\w+)>\("(output|adjoint)", "(\w+)", \w+, (\d+)\);')
_BODY = "    //---------\n    // primal vars\n"
# A declaration of a generated variable: `wp::float32 var_3;`, `const wp::float32 var_4 = 0.5;`, `... adj_7 = {};`.
_DECLARATION = re.compile(r"^\s+(const )?((?:wp::|bool)[^=;()]*?) ((?:var|adj)_\w+)(?: = [^;]*)?;$", re.M)
# Forward: `var_5 = wp::add(`; backward: the adjoint of an add/sub of two variables.
_FORWARD_CALL = re.compile(r"(var_\w+) = wp::(add|sub)\(")
_ADJOINT_CALL = re.compile(r"wp::adj_(add|sub)\((var_\w+), (var_\w+), adj_\w+, adj_\w+, (adj_\w+)\);")


def _operator_spots(text: str, column: str) -> list[tuple[int, str]]:
    """(offset, operator name) of the add/sub calls on floating-point values a swap can change.

    Forward: any such call. Backward: the adjoint calls whose operands are both variables (not constants:
    a constant's adjoint is discarded, so flipping its sign changes nothing), where the sign of the second
    operand's adjoint flips. Calls on integers compute indices and loop bounds: a swap there reads out of
    bounds or never ends (measured: 1 of 8 backward swaps timed out) or changes nothing the digests see."""
    declared = {name: (bool(const), kind) for const, kind, name in _DECLARATION.findall(text)}

    def floating(name: str) -> bool:
        kind = declared.get(name, (False, "int"))[1]
        return "int" not in kind and kind != "bool"

    if column.endswith("forward"):
        return [(m.start(2), m.group(2)) for m in _FORWARD_CALL.finditer(text) if floating(m.group(1))]
    spots = []
    for m in _ADJOINT_CALL.finditer(text):
        a, b = declared.get(m.group(2), (True, "")), declared.get(m.group(3), (True, ""))
        if floating(m.group(4)) and not a[0] and not b[0]:
            spots.append((m.start(1), m.group(1)))
    return spots


def _judged(row: Mapping[str, Any], column: str) -> list[tuple[str, str, int]]:
    """(storage type, array name, components) of the arrays `column` is judged by."""
    kind = "output" if column.endswith("forward") else "adjoint"
    return [(s, n, int(c)) for s, k, n, c in _DIGEST.findall(row["cpu_program"]) if k == kind]


def _fill(text: str, column: str, statements: list[str]) -> str | None:
    """`text` with `statements` run by task 0 at the start of the kernel body, then every task returns."""
    at = text.find(_BODY)
    if at < 0 or not column.startswith("cpu_"):
        return None
    block = "    if (task_index == 0) {\n" + "".join(f"        {s}\n" for s in statements) + "    }\n    return;\n"
    return text[:at] + block + text[at:]


def plant(row: Mapping[str, Any], column: str, kind: str, seed: int = 0) -> str | None:
    """The row's `column` text with `kind` planted, or None when the row has no such plant."""
    text = row[column]
    prefix = "var" if column.endswith("forward") else "adj"
    judged = _judged(row, column)
    if kind == "operator":
        spots = _operator_spots(text, column)
        if not spots:
            return None
        at, name = random.Random(seed).choice(spots)
        return text[:at] + {"add": "sub", "sub": "add"}[name] + text[at + len(name) :]
    if not judged:
        return None
    if kind in ("zeros", "constant"):
        byte = "0" if kind == "zeros" else "0x41"
        return _fill(text, column, [f"memset({prefix}_{n}.data, {byte}, sizeof({s}) * {c});" for s, n, c in judged])
    if kind == "copy":
        inputs = [(s, n, int(c)) for s, n, c in INPUT_DATA.findall(row["cpu_program"])]
        statements = []
        for s, n, c in judged:
            source = next((i for i in inputs if i[0] == s and i[2] == c and (i[1] != n or prefix == "adj")), None)
            if source is not None:
                statements.append(f"memcpy({prefix}_{n}.data, var_{source[1]}.data, sizeof({s}) * {c});")
        return _fill(text, column, statements) if statements else None
    raise ValueError(f"unknown plant {kind!r}: one of {', '.join(PLANTS)}")
