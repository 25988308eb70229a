"""The card: `dataset_card.md` rendered into the folder's README.md, numbers computed from the files."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from string import Template
from typing import Any

import pyarrow.parquet as pq
from huggingface_hub import DatasetCardData

from warp_cuda_ir import schema
from warp_cuda_ir.writing import DATA_DIR

TEMPLATE = Path(__file__).resolve().parent.parent / "dataset_card.md"
DEFAULT_REPO_ID = "warp-cuda-ir/warp_cuda_ir"


def data_files(out: Path) -> dict[str, list[Path]]:
    return {split: sorted((out / DATA_DIR).glob(f"{split}-*.parquet")) for split in schema.SPLITS}


def compute_stats(out: Path) -> dict[str, Any]:
    """Row counts and sizes read from the Parquet files themselves."""
    rows_per_split: dict[str, int] = {}
    categories: Counter[str] = Counter()
    nbytes = 0
    for split, files in data_files(out).items():
        rows_per_split[split] = 0
        for f in files:
            nbytes += f.stat().st_size
            cats = pq.read_table(f, columns=["category"]).column("category").to_pylist()
            rows_per_split[split] += len(cats)
            categories.update(cats)
    return {
        "rows_per_split": rows_per_split,
        "categories": dict(sorted(categories.items())),
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


def size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "1M<n<10M"


def render(out: Path, build: dict[str, Any], repo_id: str = DEFAULT_REPO_ID) -> str:
    stats = compute_stats(out)
    metadata = DatasetCardData(
        license="apache-2.0",
        pretty_name="Warp CUDA IR",
        language=["en", "code"],
        tags=["code", "cuda", "gpu", "nvidia-warp", "compiler", "automatic-differentiation"],
        task_categories=["text-generation"],
        size_categories=[size_category(stats["num_rows"])],
        configs=configs_yaml([s for s, n in stats["rows_per_split"].items() if n]),
    )
    spec = build["spec"]
    values = {
        "yaml": metadata.to_yaml().strip(),
        "num_rows": f"{stats['num_rows']:,}",
        "size_mb": f"{stats['bytes'] / 1e6:.1f}",
        "num_categories": str(len(stats["categories"])),
        "warp_version": build["versions"]["warp"],
        "generator_version": spec["generator"],
        "arch": str(spec["arch"]),
        "repo_id": repo_id,
        "build_args": json.dumps(build["args"], sort_keys=True),
        "config_table": "\n".join(
            f"| `{c.name}` | {c.description} | {', '.join(f'`{x}`' for x in c.columns)} |" for c in schema.CONFIGS
        ),
        "split_table": "\n".join(f"| {s} | {n:,} |" for s, n in stats["rows_per_split"].items()),
        "schema_table": "\n".join(
            f"| `{name}` | {_type_name(feature)} | {text} |" for name, feature, text in schema.COLUMNS
        ),
        "category_table": "\n".join(f"| {c} | {n:,} |" for c, n in stats["categories"].items()),
    }
    return Template(TEMPLATE.read_text()).substitute(values)


def _type_name(feature: Any) -> str:
    return str(getattr(feature, "dtype", None) or type(feature).__name__).replace("|", "/")
