"""A whole build: shards until the size target, written by the builder as they finish; the card goes last.

`scripts/build.py` is the command line over `run_build`; tests call `run_build` directly.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import datasets
import pyarrow as pa

import warp_cuda_ir
from warp_cuda_ir import card, destination, program_analysis, real, schema, writing
from warp_cuda_ir.cache import Cache
from warp_cuda_ir.engines import Executor, Resources, get_executor
from warp_cuda_ir.errors import RealTargetError
from warp_cuda_ir.feed import ShardFeed, shard_engine
from warp_cuda_ir.harvest import TargetError, cached_harvest, write_notices
from warp_cuda_ir.harvest.discover import resolve
from warp_cuda_ir.readback import Leakage, leakage_of, leakage_sample, read_back
from warp_cuda_ir.record import BuildOptions, BuildRecord, RealPackage, RealRecord, owned_paths
from warp_cuda_ir.shards import ShardCache, ShardStats

DATASET_NAME = "warp_cuda_ir"


@dataclass
class BuildResult:
    out: Path | str  # the local folder, or the fsspec URL the files were copied to
    num_shards: int
    rows_per_split: dict[str, int]
    categories: dict[str, int]
    bytes: int
    failures: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    resumed: bool = False
    real: RealRecord | None = None


HarvestProgress = Callable[[str, int, int], None]  # (target as named, files done, files in all)
# (stage, the job just finished or "", done, in all): "capture" per job, then "compile" per chunk of replayed
# kernels compiled, then "replay" per launch replayed; then "rows" per real row made (captured or not)
CaptureProgress = Callable[[str, str, int, int], None]


def check_real_targets(targets: tuple[str, ...]) -> list[str]:
    """One line per `--real` name that names nothing harvestable (cheap: lists files, imports nothing).

    Raises RealTargetError when none of them does.
    """
    errors = []
    for spec in targets:
        try:
            resolve(spec, 0)
        except TargetError as e:
            errors.append(str(e))
    if targets and len(errors) == len(targets):
        raise RealTargetError(errors[0] + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""))
    return errors


def run_build(
    options: BuildOptions,
    on_shard: Callable[[ShardStats], None] = lambda _: None,
    on_harvest: HarvestProgress | None = None,
    on_warning: Callable[[str], None] = lambda _: None,
    on_capture: CaptureProgress | None = None,
) -> BuildResult:
    """Build into `options.out`: a local folder, or an fsspec URL (built in a staging folder, then copied).

    Everything that can refuse (the output, the engine, `--real` names) is checked before any shard is
    generated. Real rows (`options.real`) are harvested first (cached in the machine cache) and written in
    full; the size target applies to the synthetic rows, which leave out any program a real row has.
    """
    started = time.time()
    identity = options.identity()
    url = str(options.out) if destination.is_url(options.out) else None
    if url:
        destination.check_writable(url, identity, options.overwrite)
        out = Path(options.staging or destination.default_staging(url)).absolute()
    else:
        out = Path(str(options.out).removeprefix("file://")).absolute()
    # Before the folder is touched (Ray: connected); every fan-out of the build runs on it, and leaving
    # this block on Ctrl-C or SIGTERM stops every process it started.
    executor = get_executor(options.engine, options.workers, options.ray_address)
    with executor, ExitStack() as scratch:
        cache = Cache.from_options(options.cache_dir)
        if options.no_cache:  # a cache that lives as long as this build (replay verdicts travel through it)
            cache = Cache(scratch.enter_context(tempfile.TemporaryDirectory(prefix="warp_cuda_ir_cache_")))
        cache.warn = on_warning
        warned = check_real_targets(options.real)
        for line in warned:
            on_warning(line)
        previous = BuildRecord.load(out)
        resumed = writing.prepare_output(out, identity, owned_paths(previous), options.overwrite or url is not None)
        work = out / writing.WORK_DIR
        harvested = harvest_targets(options, cache, on_harvest)
        for line in harvested["target_errors"] if harvested else ():
            if line not in warned:  # the harvest repeats the lines of names that resolve to nothing
                on_warning(line)
        rows = real_rows(options, cache, executor, harvested, on_capture) if harvested else None
        cache_root = str(work / "shards")
        ShardCache(cache_root).remove_partial()
        target_bytes = int(options.target_mb * 1e6)
        meaning = program_analysis.Tally()  # the card's figures of the synthetic programs, tallied as shards come
        shards = ShardFeed(
            options.spec,
            cache_root,
            shard_engine(executor),
            options.workers,
            target_bytes=target_bytes,
            on_shard=on_shard,
            exclude_ids=[r["id"] for r in rows.rows] if rows else (),
            on_handed=lambda index: _tally_programs(meaning, ShardCache(cache_root), index, shards.dropped),
        )

        prepared = work / "prepared"
        # A killed run may leave a half-written `prepared` or, mid-write, datasets' `prepared.incomplete`
        # (which datasets would reuse and then move into place): neither may reach the output.
        for stale in (prepared, prepared.with_name(prepared.name + ".incomplete")):
            shutil.rmtree(stale, ignore_errors=True)
        builder = warp_cuda_ir.builder_class()(
            config_name="full", dataset_name=DATASET_NAME, cache_dir=str(work / "hf_cache"), shards=shards
        )
        datasets.disable_progress_bars()
        try:  # generation runs inside: the builder writes each shard's rows while later shards are made
            # Arrow, not datasets' Snappy Parquet: `publish_arrow` compresses each file once, as published.
            builder.download_and_prepare(
                output_dir=str(prepared), file_format="arrow", max_shard_size=options.max_shard_mb * 10**6
            )
        except datasets.exceptions.DatasetGenerationError as e:
            raise (e.__cause__ or e) from None  # datasets wraps what generation raised: pass on the cause
        num_shards = shards.num_shards
        assert num_shards is not None

        leakage = _measure_leakage(executor, prepared, rows)
        # Swap in the new files: card first out, card last in, so a crash never leaves a
        # README that describes files which are not there.
        (out / writing.CARD).unlink(missing_ok=True)
        for rel in previous.files if previous else ():
            (out / rel).unlink(missing_ok=True)
        files = writing.publish_arrow(out, prepared, DATASET_NAME)
        shutil.rmtree(prepared, ignore_errors=True)
        real_record = None
        if rows is not None and harvested is not None:
            files += write_real_rows(out, rows, options.max_shard_mb * 10**6)
            licenses = write_notices(harvested["targets"], out)
            files += licenses
            real_record = _real_record(harvested, rows, shards.excluded, licenses)
        failures = Counter(f["error"].split(":")[0] for f in ShardCache(cache_root).failures(range(num_shards)))
        record = BuildRecord(
            identity=identity,
            num_shards=num_shards,
            versions={
                "datasets": datasets.__version__,
                "pyarrow": pa.__version__,
                "python": sys.version.split()[0],
                "warp_cuda_ir": warp_cuda_ir.__version__,
            },
            codegen_failures=dict(failures),
            files=(*files, writing.CARD),
            real=real_record,
        )
        record.save(out)
        readback = read_back(out, meaning, leakage)
        writing.write_text_atomic(out / writing.CARD, card.render(record, readback))
        if url:
            destination.upload(out, url, list(record.files))
            destination.remove_staging(out)
        return BuildResult(
            url or out,
            num_shards,
            readback.rows_per_split,
            dict(sorted(readback.categories.items())),
            readback.bytes,
            failures,
            time.time() - started,
            resumed,
            real_record,
        )


def _measure_leakage(executor: Executor, prepared: Path, rows: real.RealRows | None) -> Callable[[], Leakage | None]:
    """Start the card's near-duplicate measure on the rows about to be written, in a worker; returns what waits
    for it. After the last shard the workers are idle while this process writes the files and reads them back,
    and the measure alone took as long as both (3.3 of 4.3 CPU s of the read-back of a 1,664-row build)."""
    parts = [
        (stem.split("-")[0], table.column("id").to_pylist(), table.column("python_source").to_pylist())
        for stem, table in writing.prepared_tables(prepared, DATASET_NAME)
    ]
    for split in schema.SPLITS if rows is not None else ():
        keep = [r for r, s in zip(rows.rows, rows.splits, strict=True) if s == split]
        parts.append((split, [r["id"] for r in keep], [r["python_source"] for r in keep]))
    ticket = executor.submit(leakage_of, leakage_sample(parts), index=0, time_limit=None, resources=Resources())

    def result() -> Leakage | None:
        [(_, outcome)] = executor.wait([ticket])
        if outcome.status != "ok":  # a pure function of the rows: a bug, not bad input
            raise RuntimeError(f"near-duplicate measure {outcome.status}: {outcome.detail}")
        return outcome.value

    return result


def _tally_programs(meaning: program_analysis.Tally, cache: ShardCache, index: int, dropped: set[int]) -> None:
    """Add the programs of a shard the builder writes to the card's tally (repeats of earlier programs left out).

    While later shards are generated, rather than after the last one in `read_back`, where it ran alone.
    """
    table = cache.read(index, ["seed", "python_source", "category"]).to_pydict()
    for seed, text, category in zip(table["seed"], table["python_source"], table["category"], strict=True):
        if seed not in dropped:
            meaning.add(program_analysis.analyse(text, category), category)


def real_rows(
    options: BuildOptions,
    cache: Cache,
    executor: Executor,
    harvested: dict,
    on_capture: CaptureProgress | None = None,
) -> real.RealRows:
    """The real rows of a harvest (`harvest_targets`), with their captured launches when the build captures."""
    launches = _launches(options, cache, executor, harvested["records"], on_capture)
    # Workers of their own, closed after the stage, as the replays': a row loads its kernel into Warp (to
    # make its programs' inputs), and shard workers must hold nothing but the generator.
    workers = max(1, min(options.workers, -(-len(harvested["records"]) // real.ROWS_PER_ITEM)))
    with get_executor("local", workers) as rows_executor:
        return real.real_rows(
            harvested["records"],
            launches,
            rows_executor,
            (lambda done, total: on_capture("rows", "", done, total)) if on_capture else None,
        )


def write_real_rows(out: Path, rows: real.RealRows, max_shard_bytes: int) -> list[str]:
    """The real rows' Parquet files, split by split (`data/real/`, `data/real/forward_only/`); their paths."""
    files: list[str] = []
    for forward_only in (False, True):  # rows without backward texts in their own files (writing.py)
        for split in schema.SPLITS:
            keep = [
                r
                for r, s in zip(rows.rows, rows.splits, strict=True)
                if s == split and writing.has_backward(r) != forward_only
            ]
            if keep:
                table = pa.Table.from_pylist(keep, schema=schema.ARROW_SCHEMA)
                files += writing.write_split_files(out, real.SOURCE, split, table, max_shard_bytes, forward_only)
    return files


def _launches(
    options: BuildOptions,
    cache: Cache,
    executor: Executor,
    records: list[dict],
    on_capture: CaptureProgress | None,
) -> Callable[[dict], dict] | None:
    """The capture stage: real launches of the harvested packages' kernels, cached per job, then replayed.

    Replays run in executor workers (`capture.replays`): a replayed kernel is code we did not write, and one
    ended a build's own process. The rows then read their verdicts from the replay cache.
    """
    if not options.capture:
        return None
    from warp_cuda_ir.capture import capture_packages, columns, replays

    captured = capture_packages(
        options.real,
        cache,
        workers=options.workers,
        max_jobs=options.capture_jobs,
        harvest_records=records,
        progress=(lambda result, done, total: on_capture("capture", result.job.name, done, total))
        if on_capture
        else None,
        executor=executor,
    )
    verdicts = replays.ReplayCache(cache)
    to_replay = []
    for record in records:
        got = captured.record_for(record)
        if got is not None and got[1] is not None:
            to_replay.append((record["source"], record["kernel_name"], got[1]))
    replays.replay_all(
        to_replay,
        verdicts,
        workers=options.workers,
        progress=(lambda stage, done, total: on_capture(stage, "", done, total)) if on_capture else None,
        # workers of their own (closed after the stage): a replayed kernel's module stays loaded in the
        # process that ran it, and shard workers must hold nothing but the generator
    )
    return lambda record: columns.launch_columns(record, captured, verdicts)


def harvest_targets(options: BuildOptions, cache: Cache, on_harvest: HarvestProgress | None = None) -> dict | None:
    """The build's harvest, cached per target in the machine cache (a killed build keeps finished targets)."""
    if not options.real:
        return None
    harvested = cached_harvest(
        options.real, cache, workers=options.workers, arch=options.spec.arch, progress=on_harvest
    )
    if not harvested["records"]:
        lines = harvested["target_errors"] or [f"--real {','.join(options.real)}: no kernel passed its check"]
        raise RealTargetError(lines[0] + (f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""))
    return harvested


def _real_record(harvested: dict, rows: real.RealRows, synthetic_dropped: int, licenses: list[str]) -> RealRecord:
    from warp_cuda_ir.harvest.reasons import summarise

    per_package = rows.per_package()
    packages = []
    for target in harvested["targets"]:
        for package, d in target["summary"].items():
            packages.append(
                RealPackage(
                    package=package,
                    spec=target["spec"],
                    version=d.get("version"),
                    license=d.get("license"),
                    discovered=int(d["discovered"]),
                    generated_by_warp=int(d["generated_by_warp"]),
                    records=int(d["records"]),
                    check_failed=int(d["check_failed"]),
                    rows=per_package.get(package, 0),
                    reasons=dict(sorted(d["reasons"].items())),
                )
            )
    return RealRecord(
        packages=tuple(packages),
        reasons=summarise(harvested["reasons"]),
        target_errors=tuple(harvested["target_errors"]),
        rows=len(rows.rows),
        rows_per_split={s: rows.splits.count(s) for s in schema.SPLITS},
        duplicates_dropped=sum(rows.duplicates.values()),
        synthetic_dropped=synthetic_dropped,
        near_duplicate_pairs=rows.near_duplicate_pairs,
        near_duplicate_rate=round(rows.near_duplicate_rate, 4),
        near_duplicate_threshold=rows.threshold,
        licenses=tuple(licenses),
    )
