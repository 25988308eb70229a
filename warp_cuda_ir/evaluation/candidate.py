"""A candidate's program: the row's standalone program with the candidate in place of the row's own code.

The target columns hold the generated C++ of one direction of the kernel (`cpu_forward`, `cpu_backward`,
`cuda_forward`, `cuda_backward`). A row's program holds its whole module (`extraction.translation_unit`:
helpers, forward, backward, in Warp's order); the candidate's program is the same text with that module
rebuilt from the row with the one column replaced, so the candidate sits exactly where the row's own code
sat, next to the row's own other direction and helpers, under the row's own `main()`.

`main()` is the row's too, with one addition: before the forward launch it prints an `input` digest line
for every input it embeds, so a candidate whose output is a copy of an input can be recognised (the
comparison drops these lines before it compares with the reference).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from warp_cuda_ir import extraction
from warp_cuda_ir.standalone.program import INPUT_DATA, after_aot

TARGET_COLUMNS: tuple[str, ...] = ("cpu_forward", "cpu_backward", "cuda_forward", "cuda_backward")
_AOT = '#include "aot.h"\n'


def target_of(column: str) -> str:
    """ "cpu" or "cuda": the program a column's candidate runs in."""
    return column.split("_", 1)[0]


def program_column(column: str) -> str:
    return f"{target_of(column)}_program"


class CandidateError(ValueError):
    """The row's program cannot take a candidate (it was written by another version of the code)."""


def candidate_program(row: Mapping[str, Any], column: str, prediction: str) -> str:
    """The row's program for `column`'s target with `prediction` in place of the row's `column` text."""
    target = target_of(column)
    program = row[program_column(column)]
    own = extraction.translation_unit(dict(row), target)
    unit = extraction.translation_unit({**row, column: prediction}, target)
    head, sep, tail = program.partition(_AOT) if target == "cuda" else ("", "", program)
    if tail.count(own) != 1:
        raise CandidateError("the row's program does not hold the row's own module (written by another version)")
    if target == "cuda":
        # The tile macros after aot.h (`program.after_aot`) are those the module calls: the candidate's.
        own_after = after_aot(own)
        if not tail.startswith(own_after):
            raise CandidateError("the row's CUDA program is not in the expected shape")
        tail = after_aot(unit) + tail[len(own_after) :]
    return head + sep + _with_input_digests(tail.replace(own, unit, 1), row["kernel_symbol"], target)


def _with_input_digests(program: str, symbol: str, target: str) -> str:
    """The program printing an `input` line per embedded input array just before the forward launch."""
    launch = f"    {symbol}_cpu_forward(&dim, &args);" if target == "cpu" else f"    {symbol}_cuda_kernel_forward<<<"
    at = program.rfind(launch)
    if at < 0:  # a program that launches nothing (no launch record): nothing to add
        return program
    prints = [
        f'    wp_digest<{storage}>("input", "{name}", wp_in_{name}, {count});\n'
        for storage, name, count in INPUT_DATA.findall(program[:at])
    ]
    return program[:at] + "".join(prints) + program[at:]


# --- batch safety ---------------------------------------------------------------------------------------
# Candidates are compiled 16 to a translation unit (standalone/batch.py), each in a namespace of its own,
# and each runs as its own process. Text can still reach past its namespace: a macro, an unbalanced brace,
# a namespace-scope initializer or constructor attribute (runs at start-up of every row in the binary).
# A candidate whose text could do any of that is compiled alone instead; Warp's own code never does.
_STRIP = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(\w*)", re.M)
_CONDITIONALS = frozenset({"if", "ifdef", "ifndef", "elif", "else", "endif"})
_RESERVED = re.compile(
    r"\b(?:namespace|main|wp_row_\w*|wp_digest|wp_in_\w*|asm|__asm__|__attribute__|_Pragma|constructor|"
    r"destructor|init_priority|thread_local)\b|\[\["
)
_CLASS_HEAD = re.compile(r"\b(?:struct|class|union|enum)\b[^;{}()]*$")


def batch_safe(text: str) -> bool:
    """Whether `text` can share a translation unit with other candidates without reaching them."""
    code = _STRIP.sub(" ", text)
    if any(d not in _CONDITIONALS for d in _DIRECTIVE.findall(code)) or _RESERVED.search(code):
        return False
    # Scopes: "linkage" (extern "C" {, transparent), "class" (struct body), "body" (function body).
    scopes: list[str] = []
    parens = 0
    last = 0  # start of the text since the last brace or semicolon at namespace scope
    for i, c in enumerate(code):
        at_namespace = all(s == "linkage" for s in scopes)
        if c == "(":
            parens += 1
        elif c == ")":
            parens -= 1
            if parens < 0:
                return False
        elif c == "{":
            before = code[last:i].rstrip()
            if not at_namespace:
                scopes.append("inner")
            elif before.endswith("extern"):
                scopes.append("linkage")
            elif _CLASS_HEAD.search(before):
                scopes.append("class")
            elif before.endswith(")") or re.search(r"\)\s*(?:const|noexcept|override)$", before):
                scopes.append("body")
            else:  # a braced initializer at namespace scope: code run at start-up
                return False
            last = i + 1
        elif c == "}":
            if not scopes:
                return False
            scopes.pop()
            last = i + 1
        elif at_namespace and parens == 0 and c == "=":
            return False  # an initialized variable at namespace scope
        elif at_namespace and c == ";":
            if code[last:i].rstrip().endswith(")"):
                return False  # a prototype or a direct-initialized variable (`static T x(f());`)
            last = i + 1
        elif scopes and scopes[-1] == "class" and code.startswith("static", i) and not code[i - 1 : i].isalnum():
            return False  # static members can hold initializers run at start-up
    return not scopes and parens == 0
