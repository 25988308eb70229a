"""Warp's tile headers as nvcc must read them: every function marked `__host__ __device__`.

Warp compiles its generated CUDA with NVRTC and `--device-as-default-execution-space`, and its tile headers
(`warp/native/tile*.h`) are written for that mode: a function without an execution space is device code
there. nvcc has no such mode; such a function is host code, and a kernel that reaches it gets no working code
and, mostly, no error. Measured on an H200 (benchmarks/README.md, "On a GPU, again"): the CUDA programs of
1 of 75 rows calling tile functions agreed with Warp's CPU launch, against 292 of 295 without tiles. Three
forms of it, read from compute-sanitizer and the PTX: constructors (`tile_global_t`, `tile_shared_t`'s
`Storage`: nvcc warns #20014-D, the tile's pointers stay unset), member function templates
(`tile_register_t::apply`: no diagnostic, the optimiser drops every register tile load and store), and
`tile_tuple_t::dim`, which reads a `static constexpr` array (a host variable for nvcc) with a run-time index:
a silent `trap`.

So CUDA programs are compiled against a copy of Warp's native headers in which each function head of the tile
headers without an execution space, at namespace or class scope, gets `__host__ __device__` (as NVRTC's mode
makes it device code; here it stays host code too, for the programs' `main`), and `dim` reads a local constexpr
array. Against that copy the 75 programs compiled with no `trap` and no #20014, and on the H200 71 of 75 agreed
(57 of 57 generated `tile` rows); the programs without tiles agreed as before. The copy is made from the
installed Warp's headers by `device_headers` (the validation pass, the evaluator) and, for a row's own
Makefile, by the `sed` edits `makefile_rule` writes, checked against the headers' checksums.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import tempfile
from pathlib import Path

from warp_cuda_ir.engines import shared_temp_dir

MARK = "__host__ __device__ "
_ANNOTATED = re.compile(r"\b(?:CUDA_CALLABLE|CUDA_CALLABLE_DEVICE|__device__|__host__|__global__)\b")
# Words that are followed by `(` in a declaration without being the declared function's name.
_NOT_A_NAME = frozenset(
    "if for while switch return sizeof static_assert decltype alignas alignof catch else do case new delete throw "
    "typeid noexcept defined asm __asm__ __attribute__ __declspec __align__".split()
)
_NAME = re.compile(r"(~?[A-Za-z_]\w*|operator\s*(?:\(\)|\[\]|[^\s(]+))\s*\($")
_AFTER_PARAMETERS = re.compile(r"\s*(?:(?:const|noexcept|override|final|volatile|&&|&|->\s*[^{;=]+?)\s*)*([{;:=])")
_TYPE_HEAD = re.compile(r"(?:template\s*<.*>\s*)?(?:struct|class|union|enum|namespace|using|typedef|friend)\b", re.S)
_ACCESS = re.compile(r"\s*(?:public|private|protected)\s*$")
# Warp 1.19's tuple: `dim` reads its static array; the copy reads a local one (device code under nvcc).
_TUPLE_DIM = "        assert(i < N);\n        return data[i];"
_TUPLE_DIM_DEVICE = "        assert(i < N);\n        constexpr int values[N] = { V... }; return values[i];"


def _code_only(text: str) -> str:
    """`text` with comments, string and character literals and preprocessor lines blanked (same offsets)."""
    out = list(text)
    i, n = 0, len(text)

    def blank(start: int, end: int) -> None:
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif text[i] in "\"'":
            end = i + 1
            while end < n and text[end] != text[i]:
                end += 2 if text[end] == "\\" else 1
            blank(i + 1, min(end, n))
            i = end + 1
            continue
        elif text[i] == "#" and not text[text.rfind("\n", 0, i) + 1 : i].strip():
            end = i
            while True:  # the directive with its continuation lines
                end = text.find("\n", end)
                end = n if end < 0 else end
                if end < n and text[end - 1] == "\\":
                    end += 1
                    continue
                break
        else:
            i += 1
            continue
        blank(i, end)
        i = end
    return "".join(out)


def _closing(code: str, start: int, open_char: str, close_char: str) -> int:
    depth = 0
    for j in range(start, len(code)):
        if code[j] == open_char:
            depth += 1
        elif code[j] == close_char:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _head_start(code: str, start: int, end: int) -> int:
    """Where the mark goes in a head spanning `code[start:end]`: after its leading `template <...>`."""
    while start < end and code[start].isspace():
        start += 1
    if code.startswith("template", start):
        close = _closing(code, code.find("<", start), "<", ">")
        start = close + 1
        while start < end and code[start].isspace():
            start += 1
    return start


def unmarked_heads(text: str) -> list[int]:
    """Offsets of the function heads (definitions and declarations) at namespace or class scope that carry no
    execution space, where `MARK` goes."""
    code = _code_only(text)
    points: list[int] = []
    scopes: list[str] = []  # "outer" (namespace, class) or "body" (function body, initializer, enum)
    head = 0  # start of the current declaration at an outer scope
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if scopes and scopes[-1] == "body":
            if c == "{":
                scopes.append("body")
            elif c == "}":
                scopes.pop()
                if not scopes or scopes[-1] == "outer":
                    head = i + 1
            i += 1
            continue
        if c == "(":
            before = code[head : i + 1]
            name = _NAME.search(before)
            close = _closing(code, i, "(", ")")
            after = _AFTER_PARAMETERS.match(code, close + 1) if close > 0 else None
            if (
                name
                and after
                and name.group(1) not in _NOT_A_NAME
                and after.group(1) != "="  # `= default`, `= delete`, `= 0`
                and "=" not in before[: name.start()]  # a variable's initializer calling a function
                and not re.search(r"[,(]\s*$", before[: name.start()])
                and not _TYPE_HEAD.match(before.strip())
                and not _ANNOTATED.search(before)
            ):
                points.append(_head_start(code, head, i))
            i = close + 1 if close > 0 else i + 1
            continue
        if c == "{":
            opened = code[head:i].strip()
            outer = re.match(r"(?:template\s*<.*>\s*)?(?:struct|class|union)\b|(?:inline\s+)?namespace\b", opened, re.S)
            scopes.append("outer" if outer or opened.startswith('extern "C"') else "body")
            head = i + 1
        elif c == "}":
            if scopes:
                scopes.pop()
            head = i + 1
        elif c == ";" or (c == ":" and _ACCESS.match(code, head, i)):
            head = i + 1
        i += 1
    return sorted(set(points))


def device_form(name: str, text: str) -> str:
    """Header `name`'s text as the copy holds it."""
    if not name.startswith("tile"):
        return text
    for point in reversed(unmarked_heads(text)):
        text = text[:point] + MARK + text[point:]
    if name == "tile.h":
        text = text.replace(_TUPLE_DIM, _TUPLE_DIM_DEVICE, 1)
    return text


def _tile_headers(native: Path) -> list[Path]:
    return sorted(native.glob("tile*.h"))


@functools.cache
def device_headers(native_dir: str) -> str:
    """A folder holding the copy of `native_dir` (Warp's `native/`) nvcc compiles CUDA programs against, made
    once per machine and Warp installation (keyed by the tile headers' bytes and this module's)."""
    native = Path(native_dir)
    key = hashlib.sha256(Path(__file__).read_bytes())
    for header in _tile_headers(native):
        key.update(header.name.encode() + header.read_bytes())
    folder = shared_temp_dir() / f"warp_cuda_ir_device_headers_{key.hexdigest()[:16]}"
    if not (folder / "native" / "aot.h").exists():
        staging = Path(tempfile.mkdtemp(prefix=folder.name + "_", dir=folder.parent))
        shutil.copytree(native, staging / "native")
        for header in _tile_headers(staging / "native"):
            header.write_text(device_form(header.name, header.read_text(encoding="utf-8")), encoding="utf-8")
        try:
            os.rename(staging, folder)  # another process may have made it first: keep theirs
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
    return str(folder / "native")


def _sed_line(number: int, line: str) -> str:
    """A sed command that replaces line `number` with `line`, quoted for the shell inside a Makefile recipe."""
    escaped = line.replace("\\", "\\\\").replace("/", "\\/").replace("&", "\\&")
    return "-e " + _shell_quote(f"{number}s/.*/{escaped}/")


def _shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''").replace("$", "$$") + "'"


def makefile_rule(native_dir: str) -> str:
    """The Makefile lines that make the copy in `wp_native/` from `$(WARP_PATH)/native`: the installed headers'
    checksums checked first (the edits are by line), then one `sed` per changed header."""
    native, copy = Path(native_dir), Path(device_headers(native_dir))
    checks, edits = [], []
    for header in _tile_headers(native):
        checks.append(f"{hashlib.sha256(header.read_bytes()).hexdigest()}  {header.name}")
        before = header.read_text(encoding="utf-8").split("\n")
        after = (copy / header.name).read_text(encoding="utf-8").split("\n")  # the copy the pass compiles against
        if before == after:
            continue
        if len(before) != len(after):  # every change is within a line (the edits are by line number)
            raise ValueError(f"{header.name}: the device form changes the line count")
        commands = [_sed_line(k + 1, new) for k, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
        edits.append(f"\tsed -i {' '.join(commands)} wp_native.tmp/{header.name}")
    check = "\\n".join(checks)
    return "\n".join(
        [
            "# Warp's tile headers are written for NVRTC, which reads a function without an execution space as",
            "# device code; nvcc reads it as host code. wp_native/ is a copy of Warp's headers with those functions",
            "# marked __host__ __device__ (warp_cuda_ir.standalone.device_headers), for the row's warp-lang.",
            "wp_native/aot.h:",
            "\t@command -v sha256sum >/dev/null || { echo 'error: sha256sum (GNU coreutils) is needed to check "
            "the headers'; exit 1; }",
            "\trm -rf wp_native wp_native.tmp && cp -r $(WARP_PATH)/native wp_native.tmp",
            f"\tcd wp_native.tmp && printf '{check}\\n' | sha256sum --check --status || {{ rm -rf ../wp_native.tmp; "
            "echo 'error: these programs need the tile headers of the warp-lang they were made with'; exit 1; }",
            *edits,
            "\tmv wp_native.tmp wp_native",
            "",
        ]
    )
