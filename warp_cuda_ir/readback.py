"""Read-back: everything the card, the Hub check, `scripts/stats.py` and the validation console say
about a built folder, computed in one pass over its Parquet files.

Each row group of each data file is decoded once: its Arrow bytes per column (the `dataset_info`
sizes `load_dataset` checks), rows per split and category, the variety figures (Warp built-ins,
program shapes, text lengths, argument dtypes) and the validation status counts all come from that
one decode, with memory bounded by a row group. Nothing here parses source again: the per-row facts
were computed by the workers that made the rows (`source_facts`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from warp_cuda_ir import program_analysis, schema, writing
from warp_cuda_ir.errors import DatasetFolderError, one_line
from warp_cuda_ir.synthesis.catalogue import offered_builtins

# Warp's comment echoing a Python line in generated C++: `        // x = a[i]     <L 12>` (RE2 and Python `re`).
COMMENT_ECHO = r"(?m)^[ \t]*//[^\n]*<L \d+>[ \t]*\n"
# Largest number of rows whose sources are compared for near-duplicates: `harvest.near_duplicates` took
# 16 s for 300 generated sources on this (heavily shared) 2-core machine, so larger builds use a sample.
LEAKAGE_SAMPLE = 5_000


@dataclass
class Distribution:
    """Quantiles of a list of lengths."""

    min: float
    p50: float
    p90: float
    max: float

    @classmethod
    def of(cls, values: list[int]) -> Distribution:
        ordered = sorted(values) or [0]
        pick = lambda q: float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])  # noqa: E731
        return cls(float(ordered[0]), pick(0.5), pick(0.9), float(ordered[-1]))


@dataclass
class Variety:
    """How varied the rows are: built-ins used, distinct program shapes, lengths, argument dtypes."""

    builtin_counts: dict[str, int]  # Warp built-in -> rows using it, most used first
    builtins_offered: int
    distinct_shapes: int
    distinct_shape_fraction: float
    python_chars: Distribution
    cuda_forward_chars: Distribution
    dtypes: dict[str, int]  # argument dtype -> arguments, most common first

    @property
    def builtins_used(self) -> int:
        return len(self.builtin_counts)


# ---- gradient verdicts against the build-time adjoint hazard flags ----
DISAGREEING = ("wrong_adjoint", "zero_adjoint")  # the check found the adjoint wrong


@dataclass
class GradientAgreement:
    """How the gradient check's verdicts and the `adjoint_hazards` flags agree, over every row."""

    flagged_rows: int = 0  # rows with at least one adjoint hazard flag
    flags: dict[str, int] = field(default_factory=dict)  # flag kind (`dynamic_loop_mutation` ...) -> rows
    disagreeing: int = 0  # rows judged wrong_adjoint or zero_adjoint
    disagreeing_flagged: int = 0  # ... of which carry a flag
    inconclusive: int = 0
    inconclusive_flagged: int = 0
    ok_flagged: int = 0  # rows judged ok that carry a flag (the flag's construct did not bite there)
    ok_zero_adjoint: int = 0  # rows judged ok with an adjoint identically zero (must be 0)
    # "synthetic" or "real: <package>" -> `gradcheck_status` (skipped: "skipped: <reason>") -> rows
    by_group: dict[str, dict[str, int]] = field(default_factory=dict)
    disagreeing_unflagged: dict[str, int] = field(default_factory=dict)  # group -> wrong/zero rows without a flag

    @property
    def explained(self) -> float | None:
        """Share of rows whose adjoint disagreed with finite differences (wrong, zero or inconclusive) that
        carry a flag or are inconclusive: the ones a user filtering on flags and verdicts is warned about."""
        total = self.disagreeing + self.inconclusive
        return (self.disagreeing_flagged + self.inconclusive) / total if total else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "flagged_rows": self.flagged_rows,
            "flags": self.flags,
            "disagreeing": self.disagreeing,
            "disagreeing_flagged": self.disagreeing_flagged,
            "inconclusive": self.inconclusive,
            "inconclusive_flagged": self.inconclusive_flagged,
            "ok_flagged": self.ok_flagged,
            "ok_zero_adjoint": self.ok_zero_adjoint,
            "explained": self.explained,
            "by_group": self.by_group,
            "disagreeing_unflagged": self.disagreeing_unflagged,
        }


class _GradientTally:
    def __init__(self) -> None:
        self.result = GradientAgreement()
        self.flags: Counter[str] = Counter()
        self.by_group: dict[str, Counter[str]] = {}
        self.unflagged: Counter[str] = Counter()

    def add(self, group: pa.Table) -> None:
        if "adjoint_hazards" not in group.column_names:
            return  # written before the column existed
        hazards = group.column("adjoint_hazards").to_pylist()
        has = {"gradcheck_status", "gradcheck_adjoint_norm"} <= set(group.column_names)
        statuses = group.column("gradcheck_status").to_pylist() if has else [None] * len(hazards)
        norms = group.column("gradcheck_adjoint_norm").to_pylist() if has else [None] * len(hazards)
        skips = (
            group.column("gradcheck_skip_reason").to_pylist()
            if "gradcheck_skip_reason" in group.column_names
            else [None] * len(hazards)
        )
        labels = _gradient_groups(group)
        r = self.result
        for flags, status, norm, skip, label in zip(hazards, statuses, norms, skips, labels, strict=True):
            flagged = bool(flags)
            r.flagged_rows += flagged
            self.flags.update({f.split(":", 1)[0] for f in flags or ()})
            verdict = f"skipped: {skip}" if status == "skipped" and skip else status or "unvalidated"
            self.by_group.setdefault(label, Counter())[verdict] += 1
            if status in DISAGREEING:
                r.disagreeing += 1
                r.disagreeing_flagged += flagged
                self.unflagged[label] += not flagged
            elif status == "inconclusive":
                r.inconclusive += 1
                r.inconclusive_flagged += flagged
            elif status == "ok":
                r.ok_flagged += flagged
                r.ok_zero_adjoint += norm == 0.0

    def done(self) -> GradientAgreement:
        self.result.flags = dict(self.flags.most_common())
        self.result.by_group = {k: dict(c.most_common()) for k, c in sorted(self.by_group.items())}
        self.result.disagreeing_unflagged = dict(sorted(self.unflagged.items()))
        return self.result


def _gradient_groups(group: pa.Table) -> list[str]:
    """Each row's group in the card's gradient table: `synthetic`, or `real: <package>` (a real row's category)."""
    names = group.column_names
    sources = group.column("source").to_pylist() if "source" in names else ["synthetic"] * group.num_rows
    categories = group.column("category").to_pylist() if "category" in names else [None] * group.num_rows
    return [f"real: {c}" if s == "real" else (s or "synthetic") for s, c in zip(sources, categories, strict=True)]


# ---- end gradients block ----


@dataclass
class ValidationCounts:
    """What the validation columns say over every row of the folder (one pass, `_ValidationTally`)."""

    rows: int = 0
    status: dict[str, dict[str, int]] = field(default_factory=dict)  # stage -> status -> rows
    skip_reasons: dict[str, dict[str, int]] = field(default_factory=dict)  # stage -> skip reason -> rows
    per_category: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)  # category -> stage -> status
    category_rows: dict[str, int] = field(default_factory=dict)
    degenerate_rows: int = 0  # rows whose every output is degenerate (`degenerate_output`)
    rows_with_degenerate: int = 0  # rows with at least one degenerate output
    rows_with_outputs: int = 0  # rows with output statistics (the CPU launch ran)
    outputs: int = 0  # outputs described
    degenerate_outputs: dict[str, int] = field(default_factory=dict)  # kind -> outputs
    nonfinite_output: int = 0
    gpu_matches_reference: int = 0
    cuda_archs: list[int] = field(default_factory=list)
    gpus: list[str] = field(default_factory=list)
    gradients: GradientAgreement = field(default_factory=lambda: GradientAgreement())

    @property
    def validated(self) -> int:
        """Rows the pass has annotated (a row not validated has every stage skipped as "not validated")."""
        return self.rows - self.skip_reasons.get("cpu_compile", {}).get(schema.NOT_VALIDATED, 0)

    def applied(self, stage: str, category: str | None = None) -> int:
        """Rows where `stage` ran (any status but `skipped`), overall or in one category."""
        counts = self.status.get(stage, {}) if category is None else self.per_category[category].get(stage, {})
        return sum(n for status, n in counts.items() if status != "skipped")

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "status": self.status,
            "skip_reasons": self.skip_reasons,
            "per_category": self.per_category,
            "category_rows": self.category_rows,
            "degenerate_rows": self.degenerate_rows,
            "rows_with_degenerate": self.rows_with_degenerate,
            "rows_with_outputs": self.rows_with_outputs,
            "outputs": self.outputs,
            "degenerate_outputs": self.degenerate_outputs,
            "nonfinite_output": self.nonfinite_output,
            "gpu_matches_reference": self.gpu_matches_reference,
            "cuda_archs": self.cuda_archs,
            "gpus": self.gpus,
            "validated": self.validated,
            "gradients": self.gradients.to_dict(),
        }


@dataclass
class PackageRows:
    """The real rows of one harvested package, as its rows' provenance says."""

    versions: list[str]
    licenses: list[str]
    rows_per_split: dict[str, int]
    # `launch_replay` -> rows (the capture's verdict; null, i.e. built without a capture, counts as "")
    launch_replay: dict[str, int] = field(default_factory=dict)
    with_backward: int = 0  # rows with backward code (`cuda_backward` not empty)

    @property
    def rows(self) -> int:
        return sum(self.rows_per_split.values())


@dataclass
class Leakage:
    """Near-duplicate programs across splits: MinHash/LSH over token shingles (`harvest.near_duplicates`)."""

    threshold: float  # estimated Jaccard similarity of the shingle sets
    rows_compared: int  # rows whose sources went in (a hashed sample of large builds)
    rows: int  # rows of the build
    held_out: int  # validation + test rows compared
    held_out_with_train_twin: int  # of those, rows with a near-duplicate in train
    cross_split_pairs: int  # near-duplicate pairs whose rows are in different splits


@dataclass
class CommentEcho:
    """How much of `cuda_forward` is Warp's comments repeating the Python lines (`// x = a[i]   <L 12>`)."""

    chars: int  # characters of cuda_forward, all rows
    echo_chars: int  # of those, in echo comment lines (the newline included)

    @property
    def share(self) -> float:
        return self.echo_chars / self.chars if self.chars else 0.0


@dataclass
class Readback:
    """One pass over a folder's data files."""

    folder: Path
    files: dict[str, list[Path]]  # split -> its data files (every source)
    files_per_source: dict[str, dict[str, list[Path]]]  # source -> split -> its data files
    rows_per_source: dict[str, dict[str, int]]  # source -> split -> rows
    column_bytes_per_source: dict[str, dict[str, dict[str, int]]]  # source -> split -> column -> Arrow bytes
    packages: dict[str, PackageRows]  # real rows per harvested package
    rows_per_split: dict[str, int]
    categories_per_split: dict[str, dict[str, int]]  # category -> split -> rows
    column_bytes: dict[str, dict[str, int]]  # split -> column -> Arrow bytes (splits with files only)
    arrow_schema: pa.Schema | None  # of the first data file; None without data
    bytes: int  # Parquet bytes on disk
    variety: Variety | None  # None without rows
    validation: ValidationCounts
    module_options: dict[str, Any] | None  # the first generated row's, JSON-decoded; None without one
    leakage: Leakage | None = None  # None without rows in two splits
    comment_echo: CommentEcho | None = None  # None without rows
    # ---- what the synthetic programs mean (program_analysis figures over their sources) ----
    meaning: dict[str, Any] | None = None
    # Rows without backward texts (`writing.FORWARD_ONLY_DIR` files), which the backward configs leave out.
    forward_only_files: dict[str, dict[str, list[Path]]] = field(default_factory=dict)  # source -> split -> files
    forward_only_rows: dict[str, dict[str, int]] = field(default_factory=dict)  # source -> split -> rows
    forward_only_column_bytes: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    # source -> `backward_origin` (or "none: <reason's first clause>") -> rows, every file
    backward_origins: dict[str, dict[str, int]] = field(default_factory=dict)
    backward_missing_in_backward_files: int = 0  # rows the backward configs read without backward texts: 0

    @property
    def num_rows(self) -> int:
        return sum(self.rows_per_split.values())

    @property
    def categories(self) -> dict[str, int]:
        return {c: sum(by_split.values()) for c, by_split in self.categories_per_split.items()}

    @property
    def splits_with_rows(self) -> list[str]:
        return [s for s, n in self.rows_per_split.items() if n]

    def to_json(self) -> str:
        """The figures `scripts/stats.py --json` prints."""
        v = self.variety
        variety = (
            {
                "builtins_used": v.builtins_used,
                "builtins_offered": v.builtins_offered,
                "builtin_counts": v.builtin_counts,
                "distinct_shapes": v.distinct_shapes,
                "distinct_shape_fraction": v.distinct_shape_fraction,
                "python_chars": vars(v.python_chars),
                "cuda_forward_chars": vars(v.cuda_forward_chars),
                "dtypes": v.dtypes,
            }
            if v
            else None
        )
        data = {
            "rows": self.num_rows,
            "rows_per_split": self.rows_per_split,
            "rows_per_category": dict(sorted(self.categories.items())),
            "rows_per_source": {s: sum(n.values()) for s, n in self.rows_per_source.items()},
            "real_rows_per_package": {name: p.rows for name, p in self.packages.items()},
            "bytes": self.bytes,
            "variety": variety,
            "validation": self.validation.to_dict(),
            "leakage": vars(self.leakage) if self.leakage else None,
            "comment_echo": (
                {**vars(self.comment_echo), "share": self.comment_echo.share} if self.comment_echo else None
            ),
            "meaning": self.meaning,
        }
        return json.dumps(data, indent=2)


_VARIETY_COLUMNS = ("warp_builtins", "program_shape", "python_source", "cuda_forward", "arguments")
_VALIDATION_EXTRA = (
    "output_stats",
    "degenerate_output",
    "degenerate_output_count",
    "nonfinite_output",
    "gpu_matches_reference",
    "cuda_arch",
    "validation_gpu_name",
)


def read_back(
    folder: Path,
    meaning: program_analysis.Tally | None = None,
    leakage: Callable[[], Leakage | None] | None = None,
) -> Readback:
    """Read every data file of `folder` once. Raises DatasetFolderError for an unreadable file.

    `meaning`: the synthetic rows' `program_analysis` tally when the caller made it already (a build does, while
    its shards are generated: analysing every program here, in one process after the last shard, cost ~3 ms
    per row, as much as a third of Warp's codegen of the row on each of two cores).
    `leakage`: gives the folder's near-duplicate figures when the caller has them computed elsewhere (a build
    does, in a worker, while this reads the files: `leakage_of` over `leakage_sample`); called last.
    """
    folder = Path(folder)
    analysed = meaning is None
    files = writing.data_files(folder)
    files_per_source = {source: writing.data_files(folder, source) for source in schema.SOURCES}
    forward_only_files = {source: writing.data_files(folder, source, forward_only=True) for source in schema.SOURCES}
    forward_only_rows = {source: dict.fromkeys(schema.SPLITS, 0) for source in schema.SOURCES}
    forward_only_bytes: dict[str, dict[str, dict[str, int]]] = {source: {} for source in schema.SOURCES}
    origins: dict[str, Counter[str]] = {source: Counter() for source in schema.SOURCES}
    missing_in_backward_files = 0
    rows_per_source = {source: dict.fromkeys(schema.SPLITS, 0) for source in schema.SOURCES}
    column_bytes_per_source: dict[str, dict[str, dict[str, int]]] = {source: {} for source in schema.SOURCES}
    packages: dict[str, dict[str, Any]] = {}
    rows_per_split: dict[str, int] = {}
    per_category: dict[str, Counter[str]] = {}
    column_bytes: dict[str, dict[str, int]] = {}
    arrow_schema: pa.Schema | None = None
    nbytes = 0
    module_options: dict[str, Any] | None = None
    builtins: Counter[str] = Counter()
    dtypes: Counter[str] = Counter()
    shapes: set[str] = set()
    python_chars: list[int] = []
    cuda_chars: list[int] = []
    counts = _ValidationTally()
    meaning = program_analysis.Tally() if meaning is None else meaning
    cuda_total = cuda_echo = 0
    sample: list[tuple[str, str]] = []  # (split, python_source) of the rows compared for leakage
    keep = 0.0 if leakage is not None else _sample_fraction([p for paths in files.values() for p in paths])
    for split in schema.SPLITS:
        rows_per_split[split] = 0
        split_bytes: Counter[str] = Counter()
        for source in schema.SOURCES:
            paths = files_per_source[source][split]
            source_bytes: Counter[str] = Counter()
            forward_only_source_bytes: Counter[str] = Counter()
            for path in paths:
                forward_only = path in forward_only_files[source][split]
                try:
                    parquet = pq.ParquetFile(path)
                    nbytes += path.stat().st_size
                    if arrow_schema is None:
                        arrow_schema = parquet.schema_arrow
                    for i in range(parquet.num_row_groups):
                        group = parquet.read_row_group(i)
                        group_bytes = {name: group.column(name).nbytes for name in group.column_names}
                        source_bytes.update(group_bytes)
                        rows_per_split[split] += group.num_rows
                        rows_per_source[source][split] += group.num_rows
                        if forward_only:
                            forward_only_source_bytes.update(group_bytes)
                            forward_only_rows[source][split] += group.num_rows
                        missing = _count_backward_origins(group, origins[source])
                        if not forward_only:
                            missing_in_backward_files += missing
                        for category in group.column("category").to_pylist():
                            per_category.setdefault(category, Counter())[split] += 1
                        # The build's options are the generated rows'; a real row carries its upstream module's.
                        if module_options is None and group.num_rows and source == "synthetic":
                            module_options = json.loads(group.column("module_options")[0].as_py())
                        if set(_VARIETY_COLUMNS) <= set(group.column_names):
                            builtins.update(_value_counts(pc.list_flatten(group.column("warp_builtins"))))
                            dtypes.update(_value_counts(pc.struct_field(pc.list_flatten(group["arguments"]), "dtype")))
                            shapes.update(group.column("program_shape").to_pylist())
                            python_chars += pc.utf8_length(group.column("python_source")).to_pylist()
                            cuda_chars += pc.utf8_length(group.column("cuda_forward")).to_pylist()
                            cuda = group.column("cuda_forward")
                            stripped = pc.replace_substring_regex(cuda, COMMENT_ECHO, "")
                            total = pc.sum(pc.utf8_length(cuda)).as_py() or 0
                            cuda_total += total
                            cuda_echo += total - (pc.sum(pc.utf8_length(stripped)).as_py() or 0)
                            ids = group.column("id").to_pylist()
                            sources = group.column("python_source").to_pylist()
                            if leakage is None:
                                sample += [(split, t) for i, t in zip(ids, sources, strict=True) if _sampled(i, keep)]
                        if (
                            analysed
                            and source == "synthetic"
                            and {"python_source", "category"} <= set(group.column_names)
                        ):
                            programs = group.select(["python_source", "category"]).to_pydict()
                            for text, category in zip(programs["python_source"], programs["category"], strict=True):
                                meaning.add(program_analysis.analyse(text, category), category)
                        if source == "real" and "provenance" in group.column_names:
                            _count_packages(group, split, packages)
                        counts.add(group)
                except (OSError, pa.ArrowException) as e:
                    raise DatasetFolderError(f"{path} is not a readable Parquet file ({one_line(e)})") from None
            if paths:
                column_bytes_per_source[source][split] = dict(source_bytes)
            if forward_only_files[source][split]:
                forward_only_bytes[source][split] = dict(forward_only_source_bytes)
            split_bytes.update(source_bytes)
        if files[split]:
            column_bytes[split] = dict(split_bytes)
    num_rows = sum(rows_per_split.values())
    variety = None
    if python_chars:
        variety = Variety(
            builtin_counts=dict(builtins.most_common()),
            builtins_offered=len(offered_builtins()),
            distinct_shapes=len(shapes),
            distinct_shape_fraction=len(shapes) / len(python_chars),
            python_chars=Distribution.of(python_chars),
            cuda_forward_chars=Distribution.of(cuda_chars),
            dtypes=dict(dtypes.most_common()),
        )
    categories = {c: {s: n[s] for s in schema.SPLITS} for c, n in sorted(per_category.items())}
    assert sum(sum(by.values()) for by in categories.values()) == num_rows
    return Readback(
        folder=folder,
        files=files,
        files_per_source=files_per_source,
        forward_only_files=forward_only_files,
        forward_only_rows=forward_only_rows,
        forward_only_column_bytes=forward_only_bytes,
        backward_origins={source: dict(c.most_common()) for source, c in origins.items() if c},
        backward_missing_in_backward_files=missing_in_backward_files,
        rows_per_source=rows_per_source,
        column_bytes_per_source=column_bytes_per_source,
        packages={
            name: PackageRows(
                sorted(p["versions"]),
                sorted(p["licenses"]),
                {s: p["splits"][s] for s in schema.SPLITS},
                dict(p["replay"].most_common()),
                p["backward"],
            )
            for name, p in sorted(packages.items())
        },
        rows_per_split=rows_per_split,
        categories_per_split=categories,
        column_bytes=column_bytes,
        arrow_schema=arrow_schema,
        bytes=nbytes,
        variety=variety,
        validation=counts.result(),
        module_options=module_options,
        leakage=leakage() if leakage is not None else leakage_of((sample, num_rows)),
        comment_echo=CommentEcho(cuda_total, cuda_echo) if python_chars else None,
        meaning=meaning.figures() if meaning.programs else None,
    )


def _sample_fraction(paths: list[Path]) -> float:
    """Share of rows compared for leakage: all of them up to LEAKAGE_SAMPLE rows."""
    total = 0
    for path in paths:
        try:
            total += pq.read_metadata(path).num_rows
        except (OSError, pa.ArrowException) as e:
            raise DatasetFolderError(f"{path} is not a readable Parquet file ({one_line(e)})") from None
    return _fraction(total)


def _fraction(total: int) -> float:
    return min(1.0, LEAKAGE_SAMPLE / total) if total else 1.0


def _sampled(row_id: str, fraction: float) -> bool:
    """A stable hashed sample: the row id is already a hash (16 hex digits)."""
    return fraction >= 1.0 or int(row_id[:8], 16) < fraction * 2**32


def leakage_sample(rows: Iterable[tuple[str, list[str], list[str]]]) -> tuple[list[tuple[str, str]], int]:
    """(sample, rows) that `leakage_of` takes, from (split, ids, python sources) parts holding every row of a folder
    before it is written: the rows `read_back` would compare (in another order, which does not matter)."""
    parts = list(rows)
    total = sum(len(ids) for _, ids, _ in parts)
    keep = _fraction(total)
    sample = []
    for split, ids, sources in parts:
        sample += [(split, t) for i, t in zip(ids, sources, strict=True) if _sampled(i, keep)]
    return sample, total


def leakage_of(job: tuple[list[tuple[str, str]], int]) -> Leakage | None:
    """`Leakage` of (sample of (split, python_source), rows in the folder); one argument, for an executor."""
    return _leakage(*job)


def _leakage(sample: list[tuple[str, str]], rows: int) -> Leakage | None:
    """Held-out rows with a near-duplicate in train, measured with the harvest's MinHash/LSH."""
    if len({split for split, _ in sample}) < 2:
        return None
    from warp_cuda_ir.harvest.splitting import DEFAULT_THRESHOLD, near_duplicates

    found = near_duplicates([source for _, source in sample], DEFAULT_THRESHOLD)
    splits = [split for split, _ in sample]
    cross = [(i, j) for i, j in found.pairs if splits[i] != splits[j]]
    twins = {j if splits[i] == "train" else i for i, j in cross if "train" in (splits[i], splits[j])}
    return Leakage(
        threshold=DEFAULT_THRESHOLD,
        rows_compared=len(sample),
        rows=rows,
        held_out=sum(1 for s in splits if s != "train"),
        held_out_with_train_twin=len(twins),
        cross_split_pairs=len(cross),
    )


def _count_packages(group: pa.Table, split: str, packages: dict[str, dict[str, Any]]) -> None:
    replays = group.column("launch_replay").to_pylist() if "launch_replay" in group.column_names else None
    backward = pc.fill_null(pc.greater(pc.utf8_length(group.column("cuda_backward")), 0), False).to_pylist()
    for i, p in enumerate(group.column("provenance").to_pylist()):
        entry = packages.setdefault(
            p["package"],
            {"versions": set(), "licenses": set(), "splits": Counter(), "replay": Counter(), "backward": 0},
        )
        entry["backward"] += backward[i]
        entry["versions"].add(p["package_version"] or "unknown")
        entry["licenses"].add(p["license"] or "unknown")
        entry["splits"][split] += 1
        entry["replay"][(replays[i] if replays is not None else None) or ""] += 1


def _value_counts(values: pa.Array | pa.ChunkedArray) -> Counter[str]:
    return Counter({c["values"].as_py(): c["counts"].as_py() for c in pc.value_counts(values)})


def _count_backward_origins(group: pa.Table, origins: Counter[str]) -> int:
    """Add the group's rows to `origins` by `backward_origin` (missing: "none: <reason>"); return how many
    rows lack a backward text. Files written before the column existed count by their texts alone."""
    cuda, cpu = group.column("cuda_backward").to_pylist(), group.column("cpu_backward").to_pylist()
    names = group.column_names
    kinds = group.column("backward_origin").to_pylist() if "backward_origin" in names else [None] * len(cuda)
    why = group.column("backward_missing_reason").to_pylist() if "backward_missing_reason" in names else kinds
    missing = 0
    for c, p, kind, reason in zip(cuda, cpu, kinds, why, strict=True):
        if c and p:
            origins[kind or "unrecorded"] += 1
        else:
            missing += 1
            origins[f"none: {(reason or 'unrecorded').split(':')[0]}"] += 1
    return missing


class _ValidationTally:
    """Accumulates `ValidationCounts` row group by row group."""

    def __init__(self) -> None:
        self.rows = 0
        self.status: dict[str, Counter[str]] = {stage: Counter() for stage in schema.STAGES}
        self.skips: dict[str, Counter[str]] = {stage: Counter() for stage in schema.STAGES}
        self.per_category: dict[str, dict[str, Counter[str]]] = {}
        self.category_rows: Counter[str] = Counter()
        self.degenerate_rows = self.rows_with_degenerate = self.rows_with_outputs = self.outputs = 0
        self.kinds: Counter[str] = Counter()
        self.nonfinite = self.matches = 0
        self.archs: set[int] = set()
        self.gpus: set[str] = set()
        self.gradients = _GradientTally()

    def add(self, group: pa.Table) -> None:
        self.rows += group.num_rows
        self.gradients.add(group)
        categories = group.column("category").to_pylist()
        self.category_rows.update(categories)
        stages = [s for s in schema.STAGES if f"{s}_status" in group.column_names]
        if not {*_VALIDATION_EXTRA, *(f"{s}_skip_reason" for s in stages)} <= set(group.column_names) or not stages:
            # A file written before these validation columns existed: nothing was validated.
            for stage in schema.STAGES:
                self.status[stage]["skipped"] += group.num_rows
                self.skips[stage][schema.NOT_VALIDATED] += group.num_rows
                for category in categories:
                    self.per_category.setdefault(category, {}).setdefault(stage, Counter())["skipped"] += 1
            return
        names = [*(f"{s}_status" for s in stages), *(f"{s}_skip_reason" for s in stages), *_VALIDATION_EXTRA]
        table = group.select(names).to_pydict()
        for stage in stages:
            statuses = table[f"{stage}_status"]
            self.status[stage].update(statuses)
            self.skips[stage].update(r for r in table[f"{stage}_skip_reason"] if r is not None)
            for category, status in zip(categories, statuses, strict=True):
                self.per_category.setdefault(category, {}).setdefault(stage, Counter())[status] += 1
        for flag, count, stats in zip(
            table["degenerate_output"], table["degenerate_output_count"], table["output_stats"], strict=True
        ):
            if stats is None:
                continue
            self.rows_with_outputs += 1
            self.degenerate_rows += bool(flag)
            self.rows_with_degenerate += bool(count)
            self.outputs += len(stats)
            self.kinds.update(o["degenerate"] for o in stats if o["degenerate"])
        self.nonfinite += sum(1 for v in table["nonfinite_output"] if v)
        self.matches += sum(1 for v in table["gpu_matches_reference"] if v)
        self.archs.update(a for a in table["cuda_arch"] if a is not None)
        self.gpus.update(g for g in table["validation_gpu_name"] if g)

    def result(self) -> ValidationCounts:
        present = [s for s in schema.STAGES if self.status[s]]
        return ValidationCounts(
            rows=self.rows,
            status={s: dict(sorted(self.status[s].items())) for s in present},
            skip_reasons={s: dict(self.skips[s].most_common()) for s in present if self.skips[s]},
            per_category={
                c: {s: dict(sorted(n.items())) for s, n in stages.items()}
                for c, stages in sorted(self.per_category.items())
            },
            category_rows=dict(sorted(self.category_rows.items())),
            degenerate_rows=self.degenerate_rows,
            rows_with_degenerate=self.rows_with_degenerate,
            rows_with_outputs=self.rows_with_outputs,
            outputs=self.outputs,
            degenerate_outputs=dict(self.kinds.most_common()),
            nonfinite_output=self.nonfinite,
            gpu_matches_reference=self.matches,
            cuda_archs=sorted(self.archs),
            gpus=sorted(self.gpus),
            gradients=self.gradients.done(),
        )
