"""The card: `dataset_card.md` rendered into the folder's README.md, every number read back from the files.

The YAML header is what the Hub's loader and viewer read: `configs` (column projections of the
same Parquet files) and `dataset_info` (features and split sizes per config, which `load_dataset`
enforces). `verify` checks that a folder's README still describes its files before it is published.
Every figure comes from one `readback.Readback` of the folder; this module only renders.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from string import Template
from typing import Any

import datasets
from datasets.info import DatasetInfo, DatasetInfosDict
from datasets.splits import SplitDict, SplitInfo
from huggingface_hub import DatasetCard, DatasetCardData

from warp_cuda_ir import extraction, program_analysis, schema, writing
from warp_cuda_ir.readback import COMMENT_ECHO, GradientAgreement, Readback, read_back
from warp_cuda_ir.record import BuildRecord
from warp_cuda_ir.writing import CARD, LICENSES_DIR

TEMPLATE = Path(__file__).resolve().parent.parent / "dataset_card.md"
DEFAULT_REPO_ID = "warp-cuda-ir/warp_cuda_ir"
LICENSE = "apache-2.0"
NOT_VALIDATED = (
    "This build has not been validated: every row went through Warp's full code generation "
    "(rows whose codegen failed were left out), but its C++ has not been compiled or run here. "
    "Run `scripts/validate.py` on the folder to annotate each row."
)


def configs_yaml(
    files_per_source: dict[str, dict[str, list[Path]]],
    forward_only_files: dict[str, dict[str, list[Path]]] | None = None,
) -> list[dict[str, Any]]:
    """The `configs:` entries: every config reads the files of its sources (`real`/`synthetic`: one; the
    others: both) per split, only patterns that match files; all but `full` project columns.

    `forward_only_files`: the files among them of rows without backward texts (`writing.FORWARD_ONLY_DIR`),
    which the backward configs do not read."""
    entries: list[dict[str, Any]] = []
    for config in schema.CONFIGS:
        sources = schema.SOURCES if config.source is None else (config.source,)
        data_files = []
        for split in schema.SPLITS:
            paths = []
            for s in sources:
                every = files_per_source.get(s, {}).get(split) or []
                without = set((forward_only_files or {}).get(s, {}).get(split) or [])
                if any(p not in without for p in every):
                    paths.append(writing.split_pattern(split, s))
                if without and not config.backward_only:
                    paths.append(writing.split_pattern(split, s, forward_only=True))
            if paths:
                data_files.append({"split": split, "path": paths if len(paths) > 1 else paths[0]})
        if not data_files:
            continue  # e.g. `real` in a build without real rows: load_dataset refuses a config without files
        entry: dict[str, Any] = {"config_name": config.name, "data_files": data_files}
        if config.name == schema.DEFAULT_CONFIG:
            entry["default"] = True
        elif config.columns != schema.COLUMN_NAMES:
            entry["columns"] = list(config.columns)
        entries.append(entry)
    return entries


def _sizes(readback: Readback, config: schema.ConfigSpec) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Rows per split and column bytes per split of the files `config` reads."""
    if config.source is None:
        rows, column_bytes = readback.rows_per_split, readback.column_bytes
    else:
        rows, column_bytes = readback.rows_per_source[config.source], readback.column_bytes_per_source[config.source]
    if not config.backward_only:
        return rows, column_bytes
    sources = schema.SOURCES if config.source is None else (config.source,)
    rows = dict(rows)
    column_bytes = {split: dict(by) for split, by in column_bytes.items()}
    for source in sources:
        for split, n in readback.forward_only_rows.get(source, {}).items():
            rows[split] -= n
        for split, by in readback.forward_only_column_bytes.get(source, {}).items():
            for column, nbytes in by.items():
                column_bytes[split][column] -= nbytes
    # A split whose every file is forward-only is not listed in the config.
    return rows, {split: by for split, by in column_bytes.items() if rows.get(split)}


def dataset_infos(readback: Readback) -> DatasetInfosDict:
    """Per config: features and, per split, rows and Arrow bytes, as `load_dataset` records them.

    A projection's size is the size of its columns. Features come from the files' own schema,
    not from `schema.py`.
    """
    if readback.arrow_schema is None:
        return DatasetInfosDict()
    features = datasets.Features.from_arrow_schema(readback.arrow_schema)
    infos = DatasetInfosDict()
    for config in schema.CONFIGS:
        rows, column_bytes = _sizes(readback, config)
        if not column_bytes:
            continue  # no files: the config is not listed either
        # A config without a `columns:` projection in the YAML loads whatever the files hold.
        columns = list(features) if config.columns == schema.COLUMN_NAMES else config.columns
        splits = SplitDict()
        for split, sizes in column_bytes.items():
            nbytes = sum(sizes.get(c, 0) for c in columns)
            splits.add(SplitInfo(name=split, num_bytes=nbytes, num_examples=rows[split]))
        infos[config.name] = DatasetInfo(
            features=datasets.Features({c: features[c] for c in columns if c in features}),
            splits=splits,
            download_size=readback.bytes,
            dataset_size=sum(s.num_bytes for s in splits.values()),
        )
    return infos


def size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "1M<n<10M"


def generated_rows(readback: Readback) -> int:
    return sum(readback.rows_per_source.get("synthetic", {}).values())


def real_rows(readback: Readback) -> int:
    return sum(readback.rows_per_source.get("real", {}).values())


def data_license(readback: Readback) -> str:
    """The Hub's license id for the whole folder: Apache-2.0 when every row is (generated rows, and real rows
    of Apache-2.0 packages); `unknown` when a package's license is not known; `other` for any other mix."""
    licenses = {name for p in readback.packages.values() for name in p.licenses}
    if licenses <= {"Apache-2.0"}:
        return LICENSE
    return "unknown" if "unknown" in licenses else "other"


def metadata(readback: Readback) -> DatasetCardData:
    """The YAML header, from the files."""
    tags = ["code", "cuda", "gpu", "nvidia-warp", "compiler", "automatic-differentiation"]
    data = DatasetCardData(
        license=data_license(readback),
        pretty_name="Warp CUDA IR",
        language=["en", "code"],
        tags=tags + (["synthetic"] if generated_rows(readback) else []),
        task_categories=["text-generation"],
        size_categories=[size_category(readback.num_rows)],
        configs=configs_yaml(readback.files_per_source, readback.forward_only_files),
    )
    dataset_infos(readback).to_dataset_card_data(data)  # datasets' own serialisation of `dataset_info`
    return data


def origin_line(readback: Readback) -> str:
    """Where the rows come from: generated rows by category, real rows by package (a real row's category)."""
    real, generated = real_rows(readback), generated_rows(readback)
    categories = [c for c in readback.categories if c not in readback.packages]
    parts = []
    if generated:
        parts.append(f"{generated:,} generated rows in {len(categories)} generator categories")
    if real:
        parts.append(f"{real:,} real kernels from {len(readback.packages)} packages")
    return " and ".join(parts) or "no rows"


def render(record: BuildRecord, readback: Readback, repo_id: str = DEFAULT_REPO_ID) -> str:
    generator = f"; generated rows come from generator `{record.generator_version}`" if generated_rows(readback) else ""
    values = {
        "yaml": metadata(readback).to_yaml().strip(),
        "num_rows": f"{readback.num_rows:,}",
        "size_mb": f"{readback.bytes / 1e6:.1f}",
        "origin": origin_line(readback),
        "versions": f"Warp's code is that of warp-lang {record.warp_version}{generator}.",
        "warp_version": record.warp_version,
        "repo_id": repo_id,
        "config_table": config_table(readback, repo_id),
        "splits_paragraph": splits_paragraph(readback),
        "rebuild_note": rebuild_note(readback),
        "making_section": making_markdown(record, readback),
        "limitations": limitations_markdown(readback),
        "license_section": license_markdown(record, readback),
        "split_table": "\n".join(f"| {s} | {n:,} |" for s, n in readback.rows_per_split.items()),
        "schema_table": "\n".join(
            f"| `{name}` | {_type_name(schema.FEATURES[name])} | {text} |" for name, _, text in schema.COLUMNS
        ),
        "category_table": "\n".join(
            f"| {c} | {' | '.join(f'{n:,}' for n in by_split.values())} | {sum(by_split.values()):,} |"
            for c, by_split in readback.categories_per_split.items()
        ),
        "split_header": " | ".join(schema.SPLITS),
        "split_rule": "|".join("---:" for _ in schema.SPLITS),
        "validation_section": validation_markdown(readback),
        "gradient_section": gradient_markdown(readback),
        "leakage": leakage_markdown(readback),
        "comment_echo": comment_echo_markdown(readback),
        "variety_section": variety_markdown(readback, with_categories=False),
        "real_section": real_markdown(record, readback),
        "meaning_section": meaning_markdown(readback),
    }
    return Template(TEMPLATE.read_text()).substitute(values)


def config_table(readback: Readback, repo_id: str) -> str:
    """One line per config the YAML lists (those with files); a config of every column points at the schema
    table instead of listing its columns again."""
    listed = {entry["config_name"] for entry in configs_yaml(readback.files_per_source)}
    lines = []
    for c in schema.CONFIGS:
        if c.name not in listed:
            continue
        columns = (
            "every column (see Schema)" if c.columns == schema.COLUMN_NAMES else ", ".join(f"`{x}`" for x in c.columns)
        )
        lines.append(f'| `{c.name}` | {c.description} | `load_dataset("{repo_id}", "{c.name}")` | {columns} |')
    return "\n".join(lines)


def _per_source(readback: Readback, generated: str, real: str) -> str:
    """The sentences about the sources the build holds: `generated` if it has generated rows, `real` if real."""
    return " ".join(text for text, n in ((generated, generated_rows(readback)), (real, real_rows(readback))) if n)


def splits_paragraph(readback: Readback) -> str:
    """How each source's rows were given their split."""
    return _per_source(
        readback,
        "Each generated row's split is decided by a hash of its seed (90% train, 5% validation, 5% test), so a row "
        "keeps its split whatever the size of the build.",
        "Real rows are split by a hash of their file (see Real kernels).",
    )


def rebuild_note(readback: Readback) -> str:
    """What in a row lets a user launch its kernel again."""
    return _per_source(
        readback,
        "For a generated row, `arguments[].init` and `seed` are enough to rebuild its inputs and launch it again.",
        "For a real row, `launch_record` holds a launch captured while its package's tests or examples ran, "
        "where one was.",
    )


def making_markdown(record: BuildRecord, readback: Readback) -> str:
    """How the rows were made: Warp's code generation (every row), the generator's seeds (generated rows)."""
    spec = record.spec
    lines = [
        f"For each kernel, warp-lang {record.warp_version}'s code generator (`ModuleBuilder`) emits the CUDA module "
        f'(target `sm_{spec.arch}`, for the row\'s `block_dim`) and the CPU module (as `wp.launch(device="cpu")` '
        "compiles it, block size 1); the stored texts are slices of those modules. No GPU is involved in making "
        "the data.",
    ]
    if generated_rows(readback):
        last_seed = spec.seed + record.num_shards * spec.seeds_per_shard - 1
        failures = sum(record.codegen_failures.values())
        lines += [
            "",
            f"Generated kernels come from a seeded program generator (generator `{record.generator_version}`, "
            f"categories below); seeds {spec.seed:,} to {last_seed:,} were used, one kernel per seed. Tile kernels "
            "(category `tile`) are launched with `wp.launch_tiled` (column `launch_tiled`). Seeds whose kernel Warp "
            f"rejected: {failures:,} (left out). Programs identical to an earlier one after normalization were "
            "dropped.",
            "",
            "Warp module options that shape the generated rows' text:",
            "",
            _module_options_table(readback),
        ]
    if real_rows(readback):
        lines += [
            "",
            "Real kernels keep their upstream module's options: each real row's `module_options` column holds them.",
        ]
    lines += ["", f"Build arguments: `{json.dumps(record.identity, sort_keys=True)}`."]
    return "\n".join(lines) + "\n"


def limitations_markdown(readback: Readback) -> str:
    """The Limitations list: what holds for every row, then what holds for each source the build holds."""
    generated, real = generated_rows(readback), real_rows(readback)
    items = []
    if generated:
        contrast = f" such as this build's {real:,} real rows" if real else ""
        items.append(
            f"The {generated:,} generated kernels are synthetic: written by a seeded generator from parameterised "
            "families, not collected from projects, so their style and the range of Warp features they use are "
            f"narrower than real code{contrast}."
        )
    if real:
        names = ", ".join(readback.packages)
        one = len(readback.packages) == 1
        whose = "that package's" if one else "those packages'"
        items.append(
            f"The {real:,} real kernels come from {len(readback.packages)} {'package' if one else 'packages'} "
            f"({names}): they show {whose} domains and style, not Warp code at large."
        )
        backward = sum(p.with_backward for p in readback.packages.values())
        if backward < real:
            items.append(
                f"{real - backward:,} of the {real:,} real rows have no backward code (`cuda_backward` and "
                "`cpu_backward` empty): they serve forward translation only."
            )
        replayed = sum(p.launch_replay.get(v, 0) for p in readback.packages.values() for v in ("equal", "close"))
        captured = any(set(p.launch_replay) - {""} for p in readback.packages.values())
        why = (
            "have no launch that replays `equal` or `close`" if captured else "have no launch (built without a capture)"
        )
        items.append(
            f"{real - replayed:,} of the {real:,} real rows {why}: validation compiles them but cannot run them."
        )
    items += [
        "The C++ is what one Warp version emits with the module options each row records (`module_options`); "
        "other Warp versions or options emit different text for the same kernel.",
        "Kernel symbols carry Warp's content hash (`name_<hash>`), kept as Warp writes them.",
        "The texts reference Warp's runtime headers (`builtin.h` and friends) without including them: they compile "
        "with Warp's headers, not on their own. The standalone programs (`cuda_standalone`) include them "
        "(`-isystem <warp>/native`) and build with `nvcc` / `g++` alone.",
        "The CUDA programs (`cuda_program`) of kernels that call Warp's tile functions build against a copy of "
        "Warp's headers their Makefile makes (`wp_native/`, checked against warp-lang 1.19.0's headers): Warp's "
        "tile headers leave functions without an execution space, which NVRTC, Warp's own compiler, reads as "
        "device code and `nvcc` as host code. Measured on an H200, 111 of 123 such programs and 231 of 238 without "
        "tiles printed the reference digest; `standalone_gpu_matches_reference` tells, for a build validated on "
        "a GPU.",
        "The reference of a kernel that calls tile functions is Warp's CPU launch, which runs each tile with one "
        "thread; on a GPU a tile spans `block_dim` threads. A kernel whose result depends on its block's threads "
        "(per-thread atomics, tile stacks filled by every thread, per-thread random numbers) prints another "
        "result on a GPU: 12 of 120 such real rows on an H200.",
        "About 1 kernel in 10,000 compiles for the CPU but may fail to load there (`cpu_run_status` `error`): "
        "warp-lang 1.19's CPU JIT lacks `__truncdfhf2`, which some float16 kernels need (whether it is found depends "
        "on what the validating process compiled before). Its CUDA code is unaffected.",
    ]
    return "\n".join(f"- {item}" for item in items) + "\n"


def license_markdown(record: BuildRecord, readback: Readback) -> str:
    """Who wrote what and under which license, for the sources the build holds: the generator's kernels, each
    real package's kernels with the license files the folder carries, and Warp's generated C++ (every row)."""
    generated, real = generated_rows(readback), real_rows(readback)
    if data_license(readback) == LICENSE:
        released = "The data is released under **Apache-2.0**."
    else:
        what = "The generated rows and every row's C++" if generated else "Every row's C++"
        released = (
            f"{what} are released under **Apache-2.0**; each real row's Python kernel stays under its package's "
            "license (below)."
        )
    lines = [released, ""]
    if generated:
        lines.append(
            f"- The Python kernels of the {generated:,} generated rows are written by this project's generator "
            "(Apache-2.0)."
        )
    if real:
        files = record.real.licenses if record.real else ()
        lines.append(
            f"- The Python kernels of the {real:,} real rows are the work of their packages' authors, under each "
            "package's license; column `provenance` gives each row's package, version, file and line. Keep the "
            "package's license and notice files (in `LICENSES/`) and the provenance with any copy of its rows:"
        )
        lines += [
            "",
            "| package | version | license | real rows | license and notice files |",
            "|---|---|---|---:|---|",
        ]
        for name, p in readback.packages.items():
            shipped = sorted(f for f in files if f.split("/")[1:2] == [name])
            listed = (
                f"`{LICENSES_DIR}/{name}/`: " + ", ".join(f"`{f.split('/', 2)[2]}`" for f in shipped)
                if shipped
                else "none found: check its terms before redistributing"
            )
            lines.append(f"| {name} | {', '.join(p.versions)} | {', '.join(p.licenses)} | {p.rows:,} | {listed} |")
        lines.append("")
    lines.append(
        "- The C++ texts of every row are the output of [NVIDIA Warp](https://github.com/NVIDIA/warp)'s code "
        "generator (Copyright NVIDIA Corporation, Apache-2.0), and that output reproduces fragments of the "
        "templates in Warp's source; releasing it under Warp's own license keeps it usable wherever Warp is, and "
        "asks users for the same attribution Warp's license asks: keep this notice when redistributing. Warp's "
        "headers and libraries are not included."
    )
    lines += ["", "This is not legal advice."]
    return "\n".join(lines) + "\n"


def verify(out: Path, readback: Readback | None = None) -> list[str]:
    """Where the folder's README.md no longer describes its files (empty: it does)."""
    path = out / CARD
    if not path.exists():
        return [f"{path} is missing"]
    try:
        data = DatasetCard.load(path).data.to_dict()
    except Exception as e:  # any parse failure means the same thing to the user
        return [f"{path} does not parse as a dataset card ({e})"]
    readback = readback or read_back(out)
    problems: list[str] = []
    expected = metadata(readback).to_dict()
    for key in ("dataset_info", "configs"):
        if data.get(key) != expected.get(key):
            problems.append(f"its `{key}` YAML differs from what the files give{_split_difference(data, expected)}")
    if f"**{readback.num_rows:,} rows**" not in path.read_text():
        problems.append(f"its text does not state the {readback.num_rows:,} rows the Parquet files hold")
    return problems


def _split_difference(card: dict[str, Any], files: dict[str, Any]) -> str:
    """`(train: card 148 rows, files 150)` for the first split whose count differs, else ''."""

    def counts(data: dict[str, Any]) -> dict[str, int]:
        infos = data.get("dataset_info") or []
        infos = [infos] if isinstance(infos, dict) else infos
        return {s["name"]: s["num_examples"] for s in (infos[0].get("splits", []) if infos else [])}

    said, found = counts(card), counts(files)
    for split in schema.SPLITS:
        if said.get(split, 0) != found.get(split, 0):
            return f" ({split}: card {said.get(split, 0):,} rows, files {found.get(split, 0):,})"
    return ""


HARVEST_RUNS_CODE = (
    "Harvesting imports every module of the packages and folders it is given, i.e. runs their code: "
    "harvest only code you trust."
)


def real_markdown(record: BuildRecord, readback: Readback) -> str:
    """The real-kernels section: each package with version, license and rows; near-duplicates; provenance."""
    real_rows = sum(readback.rows_per_source.get("real", {}).values())
    if not real_rows:
        return (
            "This build holds no real kernels (built with `--real none`): every row is generated (`source` = "
            "`synthetic`).\n"
        )
    lines = [
        f"{real_rows:,} rows are real kernels (`source` = `real`, config `real`): `@wp.kernel`s of the "
        "packages below, each written as one self-contained module (the kernel and the functions, structs and "
        "constants it reaches) whose generated code was checked to equal Warp's code for the kernel in its own "
        "package; `build.json` lists every kernel found that did not become a row, with its reason. "
        "Column `provenance` gives each row's package, version, file, line, "
        "license and the kernel as written upstream; `seed` and argument recipes are null. The upstream "
        "license files are in `LICENSES/`.",
        "",
        _launches_paragraph(readback),
        "",
        f"| package | version | license | {' | '.join(schema.SPLITS)} | rows | replayed launch |",
        "|---|---|---|" + "---:|" * (len(schema.SPLITS) + 2),
    ]
    for name, p in readback.packages.items():
        cells = " | ".join(f"{p.rows_per_split[s]:,}" for s in schema.SPLITS)
        usable = sum(p.launch_replay.get(v, 0) for v in ("equal", "close"))
        lines.append(
            f"| {name} | {', '.join(p.versions)} | {', '.join(p.licenses)} | {cells} | {p.rows:,} | "
            f"{usable:,} ({percent(usable, p.rows)}) |"
        )
    lines.append("")
    lines.append(
        "Real rows are split by a hash of their (package, file), so the kernels of one file never straddle "
        "splits; files joined by a near-duplicate pair take one split."
    )
    real = record.real
    if real is not None:
        lines.append(
            f"Near-duplicates (MinHash/LSH, estimated Jaccard similarity of token 5-shingles >= "
            f"{real.near_duplicate_threshold:g}): {real.near_duplicate_rate:.1%} of real rows have one "
            f"({real.near_duplicate_pairs:,} pairs), none across splits. {real.synthetic_dropped:,} generated "
            "programs equal to a real one were left out."
        )
    lines += ["", HARVEST_RUNS_CODE]
    return "\n".join(lines) + "\n"


def _launches_paragraph(readback: Readback) -> str:
    """What `launch_record` / `launch_replay` hold in this build, counted from the rows."""
    verdicts: Counter[str] = Counter()
    for p in readback.packages.values():
        verdicts.update(p.launch_replay)
    real_rows = sum(verdicts.values())
    if verdicts.get("", 0) == real_rows:
        return (
            "This build ran no capture (`--no-capture`): `launch_record` and `launch_replay` are null and "
            "`launch_dim` is null, so validation compiles real rows but does not run them."
        )
    usable = verdicts.get("equal", 0) + verdicts.get("close", 0)
    counts = ", ".join(f"`{v}` {n:,}" for v, n in verdicts.most_common() if v)
    return (
        f"Launches: the build ran the packages' own tests and examples on the CPU and recorded real launches of "
        f"their kernels (`launch_record`: grid and every argument before the launch, the changed arrays after "
        f"it), then replayed each record with the row's own source and compared the result "
        f"(`launch_replay`: {counts}). The {usable:,} rows ({percent(usable, real_rows)} of real rows) whose "
        "replay is `equal` or `close` carry `launch_dim` and argument roles and are validated like generated "
        "rows (CPU run, output digest and statistics, gradient check); the others are compile-only."
    )


_MAIN_STATUSES = ("ok", "error", "timeout")


def validation_markdown(readback: Readback) -> str:
    """The validation section: per stage, rates over the rows where it ran, skipped rows apart by reason."""
    v = readback.validation
    if not v.validated:
        return NOT_VALIDATED + "\n"
    stages = list(v.status)
    lines = [
        f"{v.validated:,} of {v.rows:,} rows went through the validation pass. Each stage's rate is over the rows "
        "where the stage ran (status other than `skipped`); skipped rows are not failures and are counted apart, "
        "by reason (`<stage>_skip_reason`, one of a fixed list).",
        "",
        "| stage | ran | ok | error | timeout | other verdicts | ok, of ran | skipped |",
        "|---|---:|---:|---:|---:|---|---:|---:|",
    ]
    for stage in stages:
        n = v.status[stage]
        ran = v.applied(stage)
        other = ", ".join(f"`{k}` {c:,}" for k, c in n.items() if k not in (*_MAIN_STATUSES, "skipped")) or "-"
        cells = " | ".join(f"{n.get(k, 0):,}" for k in _MAIN_STATUSES)
        lines.append(
            f"| `{stage}` | {ran:,} | {cells} | {other} | {percent(n.get('ok', 0), ran)} | {n.get('skipped', 0):,} |"
        )
    skips = [(stage, reason, n) for stage, reasons in v.skip_reasons.items() for reason, n in reasons.items()]
    if skips:
        lines += ["", "Skipped rows, by stage and reason:", "", "| stage | reason | rows |", "|---|---|---:|"]
        lines += [f"| `{stage}` | {reason} | {n:,} |" for stage, reason, n in skips]
    lines += ["", *_degenerate_lines(readback), ""]
    lines.append(
        f"{v.nonfinite_output:,} rows have NaN or Inf outputs (`nonfinite_output`); "
        f"{v.gpu_matches_reference:,} match the CPU reference on GPU ({', '.join(v.gpus) or 'no GPU used'}); "
        f"CUDA arch {', '.join(f'sm_{a}' for a in v.cuda_archs) or 'n/a'}."
    )
    lines += [
        "",
        "Per category, the share of rows that passed each stage among those where it ran (`n/a`: it ran on none):",
        "",
        f"| category | rows | {' | '.join(stages)} |",
        "|---|---:|" + "---:|" * len(stages),
    ]
    for category, per_stage in v.per_category.items():
        cells = []
        for stage in stages:
            ran = v.applied(stage, category)
            cells.append(f"{percent(per_stage.get(stage, {}).get('ok', 0), ran)} of {ran:,}")
        lines.append(f"| {category} | {v.category_rows.get(category, 0):,} | {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


# ---- known-wrong backward code and the gradient check ----
def gradient_markdown(readback: Readback) -> str:
    """Known-wrong backward code (build-time flags) and how the gradient check's verdicts agree with it."""
    g = readback.validation.gradients
    total = readback.num_rows
    lines = [
        f"{g.flagged_rows:,} of {total:,} rows ({percent(g.flagged_rows, total)}) contain a construct for which "
        "Warp 1.19's backward code is known to be wrong or missing (column `adjoint_hazards`, found by reading the "
        "Python source at build time; the list of built-ins without an adjoint is read from Warp's own headers):",
        "",
        "| construct | rows |",
        "|---|---|",
        *(f"| `{kind}` | {n:,} |" for kind, n in g.flags.items()),
        "",
    ]
    lines += [backward_paragraph(readback), ""]
    if readback.validation.validated:
        explained = "n/a" if g.explained is None else f"{100 * g.explained:.1f}%"
        lines += [
            f"The gradient check (`gradcheck_status`) found the adjoint wrong on {g.disagreeing:,} rows "
            f"(`wrong_adjoint` or `zero_adjoint`), {g.disagreeing_flagged:,} of which carry a flag, and could not "
            f"decide on {g.inconclusive:,} (`inconclusive`: finite differences unstable at a kink, branch or "
            f"discontinuity). Of the rows where adjoint and finite differences disagree, {explained} carry a flag "
            f"or are inconclusive. {g.ok_flagged:,} flagged rows passed the check (the construct did not change "
            f"the gradient for those inputs); {g.ok_zero_adjoint:,} rows pass with an adjoint identically zero.",
            "",
            *_gradient_table(g),
        ]
    lines.append(
        "For training or evaluating on backward code: the `cuda_backward`/`cpu_backward` texts are what Warp "
        "generates, not necessarily a correct gradient. To learn correct adjoints, keep rows with "
        '`gradcheck_status == "ok"` and an empty `adjoint_hazards`; rows with a flag or a `wrong_adjoint`/'
        "`zero_adjoint` verdict are faithful examples of Warp's output but teach its known errors."
    )
    return "\n".join(lines) + "\n"


def backward_paragraph(readback: Readback) -> str:
    """Where the backward texts come from, per source, and the rows the backward configs leave out, and why."""
    parts, left_out = [], []
    for source, origins in readback.backward_origins.items():
        total = sum(origins.values())
        kinds = ", ".join(f"`{k}` {n:,}" for k, n in origins.items() if not k.startswith("none: "))
        parts.append(f"{source} rows: {kinds or 'none'} of {total:,}")
        left_out += [(source, k.removeprefix("none: "), n) for k, n in origins.items() if k.startswith("none: ")]
    text = (
        "Backward code (`backward_origin`): "
        + "; ".join(parts)
        + ". `enabled_here:*` rows come from packages that compile forward-only; their backward code was generated "
        "here with `enable_backward` on for code generation only (forward texts unchanged)."
    )
    if left_out:
        reasons = "; ".join(f"{source}: {n:,} ({reason})" for source, reason, n in left_out)
        text += (
            f" Rows without backward code are kept in `{writing.FORWARD_ONLY_DIR}/` files that the `cuda_backward` "
            f"and `cpu_backward` configs do not read, so no backward target is empty; by reason "
            f"(`backward_missing_reason`): {reasons}."
        )
    return text


def _gradient_table(g: GradientAgreement) -> list[str]:
    """Gradient verdicts per source and per package (`synthetic`, `real: <package>`)."""
    if not g.by_group:
        return []
    verdicts = sorted({v for by in g.by_group.values() for v in by}, key=lambda v: (v.startswith("skipped"), v))
    lines = [
        "Gradient verdicts by source and package (`gradcheck_status`; skipped rows by reason), and the rows judged "
        "`wrong_adjoint`/`zero_adjoint` without an `adjoint_hazards` flag:",
        "",
        f"| rows of | {' | '.join(f'`{v}`' for v in verdicts)} | wrong/zero without a flag |",
        "|---|" + "---:|" * (len(verdicts) + 1),
    ]
    for label, by in g.by_group.items():
        cells = " | ".join(f"{by.get(v, 0):,}" for v in verdicts)
        lines.append(f"| {label} | {cells} | {g.disagreeing_unflagged.get(label, 0):,} |")
    return [*lines, ""]


# ---- end gradients block ----


def _degenerate_lines(readback: Readback) -> list[str]:
    v = readback.validation
    if not v.rows_with_outputs:
        return ["No row ran on the CPU, so no output was described (`output_stats`)."]
    degenerate = sum(v.degenerate_outputs.values())
    kinds = ", ".join(f"`{k}` {n:,}" for k, n in v.degenerate_outputs.items()) or "none"
    return [
        f"Degenerate outputs (`output_stats`: outputs that carry no information of their own): "
        f"{v.degenerate_rows:,} of the {v.rows_with_outputs:,} rows that ran on the CPU "
        f"({percent(v.degenerate_rows, v.rows_with_outputs)}) have every output degenerate (`degenerate_output`), "
        f"{v.rows_with_degenerate:,} ({percent(v.rows_with_degenerate, v.rows_with_outputs)}) at least one "
        f"(`degenerate_output_count`); {degenerate:,} of {v.outputs:,} outputs ({percent(degenerate, v.outputs)}) "
        f"are degenerate: {kinds}. Filter with `degenerate_output == False` to train or evaluate only on "
        "kernels whose outputs carry information."
    ]


def leakage_markdown(readback: Readback) -> str:
    """The Splits section's sentence on near-duplicates across splits, as measured."""
    leak = readback.leakage
    exact = (
        "No two rows anywhere in the build have the same normalized Python source (formatting and comments "
        "ignored), so no program is repeated exactly across splits."
    )
    if leak is None:
        return exact + " Only one split holds rows, so there is nothing to leak across."
    sampled = (
        ""
        if leak.rows_compared == leak.rows
        else f" (a hashed sample of {leak.rows_compared:,} of {leak.rows:,} rows, so the count is a lower bound)"
    )
    return (
        f"{exact} Near-duplicates are another matter: comparing every row's Python source{sampled} with "
        f"MinHash/LSH over 5-token shingles (estimated Jaccard similarity >= {leak.threshold}), "
        f"**{leak.held_out_with_train_twin:,} of {leak.held_out:,} validation and test rows "
        f"({percent(leak.held_out_with_train_twin, leak.held_out)}) have a near-duplicate in train** "
        f"({leak.cross_split_pairs:,} near-duplicate pairs straddle splits). Generated programs share templates; "
        "evaluate on the held-out rows without a train twin for a stricter test."
    )


def comment_echo_markdown(readback: Readback) -> str:
    """How much of `cuda_forward` is Warp's comments echoing the Python lines, and how to strip them."""
    echo = readback.comment_echo
    if echo is None:
        return ""
    return (
        f"Warp's generated code repeats each Python line as a comment before its C++ "
        f"(`// x = a[i]   <L 12>`): **{echo.share:.1%} of the characters of `cuda_forward`** "
        f"({echo.echo_chars:,} of {echo.chars:,}) are such comments (the backward and CPU texts carry them too). "
        "A model trained on them can copy the Python instead of translating it. To strip them:\n\n"
        "```python\nimport re\n\n"
        f'ECHO = re.compile(r"{COMMENT_ECHO}")\n'
        'ds = ds.map(lambda r: {"cuda_forward": ECHO.sub("", r["cuda_forward"])})\n```'
    )


def variety_markdown(readback: Readback, with_categories: bool = True) -> str:
    """Markdown tables of the variety figures (the card leaves out categories: it has its own table)."""
    v = readback.variety
    if v is None:
        return "No rows.\n"
    lines = [
        "| measure | value |",
        "|---|---|",
        f"| rows | {readback.num_rows} |",
        f"| distinct Warp built-ins used | {v.builtins_used} of {v.builtins_offered} |",
        f"| distinct program shapes | {v.distinct_shapes} ({v.distinct_shape_fraction:.1%} of rows) |",
    ]
    for d, label in ((v.python_chars, "Python source"), (v.cuda_forward_chars, "CUDA forward")):
        spread = f"min {d.min:.0f}, median {d.p50:.0f}, p90 {d.p90:.0f}, max {d.max:.0f}"
        lines.append(f"| {label} length (chars) | {spread} |")
    if with_categories:
        rows = sorted(readback.categories.items())
        lines += ["", "| category | rows |", "|---|---|", *(f"| {c} | {n} |" for c, n in rows)]
    lines += ["", "| argument dtype | count |", "|---|---|", *(f"| {d} | {n} |" for d, n in v.dtypes.items())]
    return "\n".join(lines) + "\n"


def percent(n: int, total: int) -> str:
    return f"{100.0 * n / total:.2f}%" if total else "n/a"


def _module_options_table(readback: Readback) -> str:
    """The Warp module options that shape the generated text, per target, from a row's record."""
    options = readback.module_options
    if options is None:
        return ""
    keys = ("block_dim", "output_arch", "enable_backward", "fast_math", "fuse_fp", "max_unroll", "mode", "lineinfo")
    lines = ["| option | cuda | cpu |", "|---|---|---|"]
    lines += [f"| `{k}` | {options['cuda'].get(k)} | {options['cpu'].get(k)} |" for k in keys]
    # The CUDA block size is a per-row column (tile kernels draw theirs), not one build-wide option.
    per_row = f"the row's `block_dim` ({extraction.CUDA_BLOCK_DIM} unless `launch_tiled`)"
    lines[2] = f"| `block_dim` | {per_row} | {options['cpu'].get('block_dim')} |"
    return "\n".join(lines)


def _type_name(feature: Any) -> str:
    if isinstance(feature, datasets.List):
        inner = feature.feature
        return f"list<{'struct' if isinstance(inner, dict) else _type_name(inner)}>"
    return str(getattr(feature, "dtype", None) or type(feature).__name__).replace("|", "/")


# ---- what the programs mean ------------------------------------------------------------------
def meaning_markdown(readback: Readback) -> str:
    """Dead code, idle arguments, fixed conditions, idle clauses, helpers defined twice, category fidelity,
    distance to real kernels."""
    m = readback.meaning
    if not m:
        return "No generated rows to analyse."

    def share(pair: list[int]) -> str:
        return f"{pair[0]:,} of {pair[1]:,} ({percent(pair[0], pair[1])})" if pair[1] else "none"

    lines = [
        "Measured statically on every generated row's `python_source` (`warp_cuda_ir/program_analysis.py`); a "
        "value is live",
        "when it reaches an array store, an atomic, a helper's return or a condition of live code, transitively.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| local assignments whose value reaches no output, atomic or condition | {share(m['dead_assignments'])} |",
        f"| input arguments without influence on any output | {share(m['idle_inputs'])} |",
        f"| `@wp.func` helpers defined but never called | {share(m['uncalled_helpers'])} |",
        f"| conditions decided before the kernel runs (literal, self-compared, contradictory) "
        f"| {share(m['fixed_conditions'])} |",
        "| `and` / `or` conditions with a clause that cannot change the outcome (`warp_cuda_ir/clauses.py`) "
        f"| {share(m['idle_clause_conditions'])} |",
        f"| `@wp.func` helpers defined twice (same parameters and body) | {m['duplicate_helpers']} |",
        f"| rows whose category's defining construct is present | {m['category_fidelity_pct']}% |",
        f"| distinct Warp built-ins used (annotations and literal signs not counted) | {m['distinct_builtins']} |",
    ]
    js = m.get("js_distance")
    if js:
        lines.append(
            "| Jensen-Shannon distance to real kernels (built-ins / statement kinds / expression kinds) "
            f"| {js['builtins']} / {js['statements']} / {js['expressions']} (mean {m['js_distance_mean']}) |"
        )
    b = program_analysis.TYPED5_BASELINE
    lines += [
        "",
        "For comparison, the first typed generator `typed-5` on seeds 0-999:"
        f" dead assignments {b['dead_assignments_pct']}%,"
        f" idle inputs {b['idle_inputs_pct']}%, uncalled helpers {b['uncalled_helpers'][0]} of"
        f" {b['uncalled_helpers'][1]}, fixed conditions {b['fixed_conditions'][0]} of {b['fixed_conditions'][1]},"
        f" category fidelity {b['category_fidelity_pct']}%, Jensen-Shannon distances {b['js_distance']['builtins']} /"
        f" {b['js_distance']['statements']} / {b['js_distance']['expressions']} (mean {b['js_distance_mean']});"
        f" on 80 of them run on the CPU, {b['never_executed_blocks_pct']}% of blocks never executed and"
        f" {b['degenerate_outputs_pct']}% of outputs degenerate (`benchmarks/meaning.py`).",
    ]
    return "\n".join(lines)
