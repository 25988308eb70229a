"""The card: `dataset_card.md` rendered into the folder's README.md, every number computed from the files.

The YAML header is what the Hub's loader and viewer read: `configs` (column projections of the
same Parquet files) and `dataset_info` (features and split sizes per config, which `load_dataset`
enforces). `verify` checks that a folder's README still describes its files before it is published.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from string import Template
from typing import Any

import datasets
import pyarrow.parquet as pq
from datasets.info import DatasetInfo, DatasetInfosDict
from datasets.splits import SplitDict, SplitInfo
from huggingface_hub import DatasetCard, DatasetCardData

from warp_cuda_ir import extraction, schema, stats
from warp_cuda_ir.validation import report
from warp_cuda_ir.writing import CARD, DATA_DIR

TEMPLATE = Path(__file__).resolve().parent.parent / "dataset_card.md"
DEFAULT_REPO_ID = "warp-cuda-ir/warp_cuda_ir"
LICENSE = "apache-2.0"
# The generated texts whose lengths the card reports.
TEXT_COLUMNS = ("python_source", "cuda_forward", "cuda_backward", "cpu_forward", "cpu_backward")


def data_files(out: Path) -> dict[str, list[Path]]:
    return {split: sorted((out / DATA_DIR).glob(f"{split}-*.parquet")) for split in schema.SPLITS}


def all_data_files(out: Path) -> list[Path]:
    return [p for paths in data_files(out).values() for p in paths]


def compute_stats(out: Path) -> dict[str, Any]:
    """Row counts and sizes read from the Parquet files themselves."""
    rows_per_split: dict[str, int] = {}
    per_split: dict[str, Counter[str]] = {}
    nbytes = 0
    for split, files in data_files(out).items():
        per_split[split] = Counter()
        for f in files:
            nbytes += f.stat().st_size
            per_split[split].update(pq.read_table(f, columns=["category"]).column("category").to_pylist())
        rows_per_split[split] = per_split[split].total()
    categories = sum(per_split.values(), Counter())
    return {
        "rows_per_split": rows_per_split,
        "categories": dict(sorted(categories.items())),
        "categories_per_split": {c: {s: per_split[s][c] for s in schema.SPLITS} for c in sorted(categories)},
        "num_rows": sum(rows_per_split.values()),
        "bytes": nbytes,
    }


def configs_yaml(splits: list[str]) -> list[dict[str, Any]]:
    """The `configs:` entries: every config reads the same files; all but `full` project columns."""
    files = [{"split": split, "path": f"{DATA_DIR}/{split}-*"} for split in splits]
    entries: list[dict[str, Any]] = []
    for config in schema.CONFIGS:
        entry: dict[str, Any] = {"config_name": config.name, "data_files": [dict(f) for f in files]}  # no YAML anchors
        if config.name == schema.DEFAULT_CONFIG:
            entry["default"] = True
        else:
            entry["columns"] = list(config.columns)
        entries.append(entry)
    return entries


def dataset_infos(out: Path) -> DatasetInfosDict:
    """Per config: features and, per split, rows and Arrow bytes, as `load_dataset` records them.

    Bytes are summed per column over row groups (bounded memory), so a projection's size is the
    size of its columns. Features come from the files' own schema, not from `schema.py`.
    """
    files = data_files(out)
    present = all_data_files(out)
    if not present:
        return DatasetInfosDict()
    features = datasets.Features.from_arrow_schema(pq.read_schema(present[0]))
    column_bytes: dict[str, Counter[str]] = {}
    num_examples: dict[str, int] = {}
    for split, paths in files.items():
        if not paths:
            continue
        column_bytes[split], num_examples[split] = Counter(), 0
        for path in paths:
            parquet = pq.ParquetFile(path)
            for i in range(parquet.num_row_groups):
                group = parquet.read_row_group(i)
                num_examples[split] += group.num_rows
                column_bytes[split].update({name: group.column(name).nbytes for name in group.column_names})
    download_size = sum(p.stat().st_size for p in present)
    infos = DatasetInfosDict()
    for config in schema.CONFIGS:
        # `full` has no `columns:` projection in the YAML: it loads whatever the files hold.
        columns = list(features) if config.name == schema.DEFAULT_CONFIG else config.columns
        splits = SplitDict()
        for split, sizes in column_bytes.items():
            nbytes = sum(sizes[c] for c in columns)
            splits.add(SplitInfo(name=split, num_bytes=nbytes, num_examples=num_examples[split]))
        infos[config.name] = DatasetInfo(
            features=datasets.Features({c: features[c] for c in columns if c in features}),
            splits=splits,
            download_size=download_size,
            dataset_size=sum(s.num_bytes for s in splits.values()),
        )
    return infos


def size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "1M<n<10M"


def metadata(out: Path, stats: dict[str, Any]) -> DatasetCardData:
    """The YAML header, from the files."""
    data = DatasetCardData(
        license=LICENSE,
        pretty_name="Warp CUDA IR",
        language=["en", "code"],
        tags=["code", "cuda", "gpu", "nvidia-warp", "compiler", "automatic-differentiation", "synthetic"],
        task_categories=["text-generation"],
        size_categories=[size_category(stats["num_rows"])],
        configs=configs_yaml([s for s, n in stats["rows_per_split"].items() if n]),
    )
    dataset_infos(out).to_dataset_card_data(data)  # datasets' own serialisation of `dataset_info`
    return data


def render(out: Path, build: dict[str, Any], repo_id: str = DEFAULT_REPO_ID) -> str:
    stats = compute_stats(out)
    spec = build["spec"]
    first_seed = spec["seed"]
    last_seed = first_seed + build["num_shards"] * spec["seeds_per_shard"] - 1
    failures = sum(build.get("codegen_failures", {}).values())
    values = {
        "yaml": metadata(out, stats).to_yaml().strip(),
        "num_rows": f"{stats['num_rows']:,}",
        "size_mb": f"{stats['bytes'] / 1e6:.1f}",
        "num_categories": str(len(stats["categories"])),
        "warp_version": build["versions"]["warp"],
        "generator_version": spec["generator"],
        "arch": str(spec["arch"]),
        "repo_id": repo_id,
        "seed_range": f"{first_seed:,} to {last_seed:,}",
        "codegen_failures": f"{failures:,}",
        "build_args": json.dumps(build["args"], sort_keys=True),
        "module_options": _module_options_table(out),
        "config_table": "\n".join(
            f'| `{c.name}` | {c.description} | `load_dataset("{repo_id}", "{c.name}")` | '
            + ", ".join(f"`{x}`" for x in c.columns)
            + " |"
            for c in schema.CONFIGS
        ),
        "split_table": "\n".join(f"| {s} | {n:,} |" for s, n in stats["rows_per_split"].items()),
        "schema_table": "\n".join(
            f"| `{name}` | {_type_name(schema.FEATURES[name])} | {text} |" for name, _, text in schema.COLUMNS
        ),
        "category_table": "\n".join(
            f"| {c} | {' | '.join(f'{n:,}' for n in by_split.values())} | {stats['categories'][c]:,} |"
            for c, by_split in stats["categories_per_split"].items()
        ),
        "split_header": " | ".join(schema.SPLITS),
        "split_rule": "|".join("---:" for _ in schema.SPLITS),
        "validation_section": validation_section(out),
        "variety_section": variety_section(out),
    }
    return Template(TEMPLATE.read_text()).substitute(values)


def verify(out: Path) -> list[str]:
    """Where the folder's README.md no longer describes its files (empty: it does)."""
    path = out / CARD
    if not path.exists():
        return [f"{path} is missing"]
    try:
        data = DatasetCard.load(path).data.to_dict()
    except Exception as e:  # any parse failure means the same thing to the user
        return [f"{path} does not parse as a dataset card ({e})"]
    stats = compute_stats(out)
    problems: list[str] = []
    expected = metadata(out, stats).to_dict()
    for key in ("dataset_info", "configs"):
        if data.get(key) != expected.get(key):
            problems.append(f"its `{key}` YAML differs from what the files give{_split_difference(data, expected)}")
    if f"**{stats['num_rows']:,} rows**" not in path.read_text():
        problems.append(f"its text does not state the {stats['num_rows']:,} rows the Parquet files hold")
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


def variety_section(out: Path) -> str:
    return stats.variety_markdown(out, with_categories=False)


def validation_section(out: Path) -> str:
    return report.markdown(out)


def _module_options_table(out: Path) -> str:
    """The Warp module options that shape the generated text, per target, from a row's record."""
    paths = all_data_files(out)
    if not paths:
        return ""
    first = pq.read_table(paths[0], columns=["module_options"]).column("module_options")[0].as_py()
    options = json.loads(first)
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
