"""Several rows' programs as one translation unit, so the compiler parses Warp's headers once per batch.

Warp's headers are most of what a program costs to compile (nvcc: ~4.5 CPU-s per program, nearly all
of it the headers). A batch holds, after the headers and the support code, each row's generated module,
data and `main()` inside a namespace of its own (`wp_row_<k>`), and a `main(argc, argv)` that runs row
`argv[1]`. The pieces are the ones `program.program` assembles, in the same order; only the namespace
around each row and the shared prefix differ. A batch that fails to compile is split, so a broken
program marks only its own row.
"""

from __future__ import annotations

from collections.abc import Sequence

from warp_cuda_ir import extraction
from warp_cuda_ir.standalone.program import CPU_INCLUDES, CUDA_INCLUDES, support


def prefix(target: str, block_dim: int, shims: Sequence[str] = ()) -> str:
    """What comes before the rows: the includes, and for CUDA the rows' blocks that must precede `aot.h`
    (`device_shim`: each distinct one kept whole; each guards its definitions against a second copy)."""
    if target == "cuda":
        # deterministic.h too: the module includes it, and inside a namespace it would land there.
        head = f"{CUDA_INCLUDES}#define WP_TILE_BLOCK_DIM {block_dim}\n{''.join(shims)}"
        return head + '#include "aot.h"\n#include "deterministic.h"\n'
    # The CPU module header without the row: Warp's headers with the CRT stand-ins, before the support code.
    return (
        f"{CPU_INCLUDES}#define WP_TILE_BLOCK_DIM {extraction.CPU_BLOCK_DIM}\n#define WP_NO_CRT\n"
        '#include "builtin.h"\n#include "deterministic.h"\n'
    )


def _block_dim(cuda_program: str) -> int:
    marker = "#define WP_TILE_BLOCK_DIM "
    start = cuda_program.index(marker) + len(marker)
    return int(cuda_program[start : cuda_program.index("\n", start)])


def batch_from_programs(programs: Sequence[str], target: str) -> str:
    """One source for the programs as their columns hold them (`program.program`'s text), cut at the seams.

    Each program is its header, the target's prefix, Warp's module, the support code, then its data and
    `main()`; the batch keeps each module, data and `main()`, in order, inside its namespace. Raises
    ValueError for a text not in that shape (or CUDA programs of different block_dims).
    """
    shared = support(target)
    block_dims = {_block_dim(p) for p in programs} if target == "cuda" else {extraction.CPU_BLOCK_DIM}
    if len(block_dims) != 1:
        raise ValueError("a CUDA batch needs programs of one block_dim")
    block_dim = block_dims.pop()
    own_prefix = CUDA_INCLUDES if target == "cuda" else CPU_INCLUDES
    parts = [shared]
    shims: dict[str, None] = {}
    cases = []
    for k, text in enumerate(programs):
        head, sep, rest = text.partition(shared)
        start = head.find(own_prefix)
        if not sep or start < 0:
            raise ValueError("not a program written by warp_cuda_ir.standalone")
        module = head[start + len(own_prefix) :]
        if target == "cuda":
            aot = module.index('#include "aot.h"\n')
            shims.setdefault(module[module.index("\n") + 1 : aot])  # after the WP_TILE_BLOCK_DIM line
            module = module[aot + len('#include "aot.h"\n') :]
        parts += [f"namespace wp_row_{k} {{", module, rest, f"}}  // namespace wp_row_{k}"]
        cases.append(f"    case {k}: return wp_row_{k}::main();")
    parts.append(_dispatch(cases))
    return "\n".join([prefix(target, block_dim, list(shims)), *parts])


def _dispatch(cases: Sequence[str]) -> str:
    return (
        "int main(int argc, char** argv) {\n"
        "    int k = 0;\n"
        "    for (const char* c = argc > 1 ? argv[1] : \"\"; *c >= '0' && *c <= '9'; ++c) k = 10 * k + (*c - '0');\n"
        "    switch (k) {\n" + "\n".join(cases) + "\n    }\n    return 2;\n}\n"
    )
