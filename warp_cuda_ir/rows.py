"""One seed -> one row: synthesis, then extraction, shaped by the schema."""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Sequence
from typing import Any

import warp as wp

from warp_cuda_ir import adjoint_hazards, extraction, schema, source_facts, standalone
from warp_cuda_ir.errors import ExtractionError
from warp_cuda_ir.synthesis import GENERATOR_VERSION, KernelProgram, synthesize

# Split shares in percent, decided by a hash of the seed (not the seed's position in
# the build), so a row keeps its split whatever the build's size or shard layout.
SPLIT_PERCENT: tuple[tuple[str, int], ...] = (("train", 90), ("validation", 5), ("test", 5))


def split_for_seed(seed: int) -> str:
    bucket = int.from_bytes(hashlib.blake2b(f"split/{seed}".encode(), digest_size=8).digest(), "little") % 100
    for split, share in SPLIT_PERCENT:
        if bucket < share:
            return split
        bucket -= share
    raise AssertionError("split shares must add up to 100")


def row_id(python_source: str) -> str:
    """Stable id from the source's AST: equal programs get equal ids (dedup key)."""
    return source_facts.analyse(python_source).identity


def make_row(seed: int, categories: Sequence[str], arch: int = extraction.DEFAULT_CUDA_ARCH) -> dict[str, Any]:
    """The row for `seed`. Raises ExtractionError when Warp cannot generate code for it."""
    return row_for_program(seed, synthesize(seed, categories), arch)


def make_rows(
    seeds: Sequence[int], categories: Sequence[str], arch: int = extraction.DEFAULT_CUDA_ARCH
) -> tuple[list[dict[str, Any]], dict[int, str]]:
    """The rows `make_row` gives for `seeds`, in order, and {seed: error} for those Warp failed on.

    Stage by stage over all the seeds rather than seed by seed: between two Warp codegen runs,
    the generator's and the source analysis's code and data fall out of the CPU caches, and
    batching them saves about 0.8 ms per row (a quarter of their cost; measured on 2 cores).
    """
    programs = [synthesize(seed, categories) for seed in seeds]
    generated: list[tuple[int, KernelProgram, extraction.KernelTexts, standalone.ProgramInputs]] = []
    failed: dict[int, str] = {}
    for seed, program in zip(seeds, programs, strict=True):
        try:
            generated.append((seed, program, *_generate(seed, program, arch)))
        except ExtractionError as e:
            failed[seed] = str(e)
    return [_shape(*made) for made in generated], failed


def row_for_program(seed: int, program: KernelProgram, arch: int = extraction.DEFAULT_CUDA_ARCH) -> dict[str, Any]:
    """Extraction and row shaping for a program already synthesized (benchmarks feed other generators)."""
    return _shape(seed, program, *_generate(seed, program, arch))


def _generate(seed: int, program: KernelProgram, arch: int) -> tuple[extraction.KernelTexts, standalone.ProgramInputs]:
    """Warp's code for the program and its launch's input values, from one load of the kernel."""
    with extraction.generated(program.source, program.kernel_name, arch, program.block_dim) as (texts, kernel, ns):
        return texts, standalone.program_inputs(_launch_record(seed, program), kernel, ns)


def _launch_record(seed: int, program: KernelProgram) -> dict[str, Any]:
    """The row's launch-record columns: what `launch.prepare` reads."""
    return {
        "seed": seed,
        "launch_dim": list(program.launch_dim),
        "block_dim": program.block_dim,
        "launch_tiled": program.launch_tiled,
        "arguments": [a.to_row() for a in program.arguments],
    }


def _shape(
    seed: int, program: KernelProgram, texts: extraction.KernelTexts, inputs: standalone.ProgramInputs
) -> dict[str, Any]:
    """One row in the schema's columns (validation columns not yet filled in)."""
    tree = ast.parse(program.source)  # one parse for the source's facts and its hazards
    facts = source_facts.analyse(program.source, tree)
    row = {
        "id": facts.identity,
        "category": program.category,
        "kernel_name": texts.kernel_name,
        "kernel_symbol": texts.kernel_symbol,
        "python_source": program.source,
        "cuda_forward": texts.cuda_forward,
        "cuda_backward": texts.cuda_backward,
        "cuda_helpers": texts.cuda_helpers,
        "cpu_forward": texts.cpu_forward,
        "cpu_backward": texts.cpu_backward,
        "cpu_helpers": texts.cpu_helpers,
        **extraction.backward_columns(texts),
        **_launch_record(seed, program),
        "warp_builtins": list(facts.builtins),
        "program_shape": facts.shape,
        "adjoint_hazards": adjoint_hazards.adjoint_hazards(program.source, tree=tree),
        "warp_version": wp.config.version,
        "generator_version": GENERATOR_VERSION,
        "module_options": json.dumps({"cuda": texts.cuda_options, "cpu": texts.cpu_options}, sort_keys=True),
        "source": "synthetic",
        "provenance": None,
        **schema.NO_CAPTURE,  # a generated row has its own launch record (seed + recipes)
        **schema.UNVALIDATED,  # filled in by the validation pass
    }
    row |= standalone.program_columns(row, inputs)  # standalone programs: text from the columns above
    assert row.keys() == set(schema.COLUMN_NAMES), "rows.make_row and schema.COLUMNS disagree"
    return row
