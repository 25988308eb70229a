#!/usr/bin/env python
"""The rows' CUDA programs on a GPU, as a user builds them (`make run-cuda`), with nothing but nvcc there.

    python benchmarks/gpu_programs.py export DIR FOLDER [FOLDER ...] [--candidates 25]   # here
    python3 benchmarks/gpu_programs.py run DIR BUDGET_S                                   # on the GPU machine
    python3 benchmarks/gpu_programs.py sanitize DIR BUDGET_S                              # there: memcheck each
    python benchmarks/gpu_programs.py report RESULTS.json                                 # here again

`export` writes, for every row of validated build folders with a reference digest (`scripts/validate.py` or
`benchmarks/gpu_agreement.py sample` then the pass), DIR/progs/r_<id>/ with the row's `program.cu`,
`Makefile`, `expected.txt` (its `standalone_reference_digest`) and `meta.json` (package, category, tile), and
a copy of the installed Warp's native headers in DIR/warp/native (the Makefile's WARP_PATH). `--candidates N`
adds, for N rows per source without tiles, evaluation candidates made by `evaluation.candidate` as
`scripts/evaluate.py` makes them: the row's own `cuda_forward` and `cuda_backward` (should be `correct`) and
its `cuda_forward` with one add/sub swapped (`evaluation.plants`' `operator` plant: a slip the judge should
catch unless the call is not reached by the row's inputs).

`run` needs the Python standard library only (a GPU machine here cannot hold warp-lang: its wheel is
149 MB and a device call carries 64 MiB): `make -s program_cuda` in each folder (16 at a time) then
`./program_cuda` (6 at a time on the one GPU, 30 s each), raw outputs to $OUT/results.json as it goes, then
compute-sanitizer (memcheck, racecheck) on the first tile programs that fail. It stops starting compiles
when BUDGET_S is nearly spent, so the call ends inside its limit.

`report` judges the raw outputs with this checkout's code: `standalone.stage.digests_agree` for the rows,
`evaluation.judge.judge` for the candidates, per package (real) or tile / other (generated).

Thousands of rows, GPU against CPU (a program alone costs nvcc ~4.5 CPU-s, nearly all of it Warp's headers):

    python benchmarks/gpu_programs.py batches DIR FOLDER [FOLDER ...]   # here: CUDA batches, and the CPU twins run
    python3 benchmarks/gpu_programs.py run-batches DIR BUDGET_S          # there: nvcc each batch, run every row
    python benchmarks/gpu_programs.py compare DIR RESULTS.json           # here: GPU lines against the CPU twin's

`batches` writes every row of the folders whose program launches its kernel into CUDA batches as the
validation pass compiles them (`standalone.batch`, 32 rows, one block_dim each; DIR/batches.json.xz), with the
copy of Warp's headers nvcc compiles against (DIR/native), and runs each row's CPU twin here (g++, in
batches too; DIR/twins.json): the twin is Warp's CPU code for the row, with the same inputs. `run-batches`
needs the standard library only; a batch nvcc refuses is halved until each program stands alone. `compare`
says, per package (real) or category (generated), how many rows' GPU digest lines agree with their twin's
(`digests_agree`, the pass's GPU tolerance), and, for a validated folder, with Warp's own CPU launch.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

RUN_LIMIT_S = 30
GPU_SLOTS = 6  # programs on the GPU at once: 16 beside 16 pass workers timed out 5 programs on an H200


def export(dest: Path, folders: list[Path], candidates: int) -> None:
    import pyarrow.parquet as pq

    from warp_cuda_ir import writing
    from warp_cuda_ir.evaluation.candidate import CandidateError, candidate_program
    from warp_cuda_ir.evaluation.plants import plant
    from warp_cuda_ir.standalone.program import launches, warp_native_dir
    from warp_cuda_ir.warp_session import uses_tiles

    if dest.exists():
        sys.exit(f"error: {dest} exists; choose a new folder")
    shutil.copytree(warp_native_dir(), dest / "warp" / "native")
    made: Counter = Counter()
    per_source: Counter = Counter()

    def write(name: str, program: str, row: dict[str, Any], meta: dict[str, Any]) -> None:
        folder = dest / "progs" / name
        folder.mkdir(parents=True)
        (folder / "program.cu").write_text(program)
        (folder / "Makefile").write_text(row["makefile"])
        (folder / "expected.txt").write_text(row["standalone_reference_digest"])
        (folder / "meta.json").write_text(json.dumps(meta))
        made[meta["kind"]] += 1

    for folder in folders:
        for path in writing.all_data_files(folder):
            for row in pq.read_table(path).to_pylist():
                if not row.get("cuda_program") or not row.get("standalone_reference_digest"):
                    continue
                if (dest / "progs" / f"r_{row['id']}").exists():
                    continue  # the same row in two of the folders (samples may overlap): one program
                meta = {
                    "id": row["id"],
                    "source": row["source"],
                    "group": (row.get("provenance") or {}).get("package")
                    or ("tile" if row.get("launch_tiled") else "other"),
                    "kernel": row["kernel_name"],
                    "tile": uses_tiles(row["cuda_forward"]),
                    "kind": "row",
                }
                write(f"r_{row['id']}", row["cuda_program"], row, meta)
                if meta["tile"] or per_source[row["source"]] >= candidates or not launches(row["cuda_program"]):
                    continue  # a program that launches nothing (inputs over the cap) cannot judge a candidate
                predictions = [("gold_forward", "cuda_forward", row["cuda_forward"])]
                if row.get("cuda_backward"):
                    predictions.append(("gold_backward", "cuda_backward", row["cuda_backward"]))
                swapped = plant(row, "cuda_forward", "operator")
                if swapped is not None:
                    predictions.append(("operator", "cuda_forward", swapped))
                for kind, column, prediction in predictions:
                    try:
                        program = candidate_program(row, column, prediction)
                    except CandidateError as e:
                        print(f"{row['id']} {column}: {e}")
                        continue
                    write(f"c_{kind}_{row['id']}", program, row, meta | {"kind": kind, "column": column})
                per_source[row["source"]] += 1
    print(f"{dest}: {dict(made)}")


class _Results:
    """Raw results of a run on the GPU machine, saved to $OUT/results.json as they come (what a call cut at its
    limit leaves there still comes back), and the time left of the run's budget."""

    def __init__(self, root: Path, budget: float) -> None:
        self.start, self.budget = time.time(), budget
        self.out = Path(os.environ.get("OUT", root / "out"))
        self.out.mkdir(parents=True, exist_ok=True)
        self.rows: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()

    def left(self) -> float:
        return self.budget - (time.time() - self.start)

    def save(self) -> None:
        with self.lock:
            text = json.dumps(self.rows)
        (self.out / "results.json.tmp").write_text(text)
        os.replace(self.out / "results.json.tmp", self.out / "results.json")


def run(root: Path, budget: float) -> None:
    progress = _Results(root, budget)
    start, out, results, lock, left, save = (
        progress.start,
        progress.out,
        progress.rows,
        progress.lock,
        progress.left,
        progress.save,
    )
    root = root.resolve()  # make runs in each program's folder: a relative WARP_PATH would name another folder
    warp_path = root / "warp"
    slots = threading.Semaphore(GPU_SLOTS)

    def one(folder: Path) -> dict[str, Any]:
        result: dict[str, Any] = {"meta": json.loads((folder / "meta.json").read_text())}
        result["expected"] = (folder / "expected.txt").read_text().splitlines()
        if left() < 60:
            return result | {"skipped": "budget"}
        begun = time.time()
        try:
            make = ["make", "-s", "program_cuda", f"WARP_PATH={warp_path}", "ARCH=90"]
            done = subprocess.run(make, cwd=folder, capture_output=True, text=True, timeout=max(10, left() - 30))
            result |= {"compile_rc": done.returncode, "compile_log": done.stderr[-3000:]}
        except subprocess.TimeoutExpired:
            result |= {"compile_rc": "timeout", "compile_log": ""}
        result["compile_s"] = round(time.time() - begun, 2)
        if result["compile_rc"] != 0:
            return result
        with slots:
            begun = time.time()
            try:
                ran = subprocess.run(
                    ["./program_cuda"], cwd=folder, capture_output=True, text=True, timeout=RUN_LIMIT_S
                )
                result |= {"run_rc": ran.returncode, "stdout": ran.stdout[-50_000:], "stderr": ran.stderr[-3000:]}
            except subprocess.TimeoutExpired:
                result |= {"run_rc": "timeout", "stdout": "", "stderr": ""}
            result["run_s"] = round(time.time() - begun, 2)
        return result

    subprocess.run(
        "nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1", shell=True
    )
    folders = sorted(
        (p for p in (root / "progs").iterdir() if p.is_dir()), key=lambda p: hashlib.md5(p.name.encode()).hexdigest()
    )
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        futures = {pool.submit(one, folder): folder for folder in folders}
        for count, future in enumerate(concurrent.futures.as_completed(futures), 1):
            with lock:
                results[futures[future].name] = future.result()
            if count % 25 == 0:
                save()
                print(f"{count}/{len(folders)} at {time.time() - start:.0f} s", flush=True)
    save()
    failed = [n for n, r in results.items() if r["meta"]["tile"] and r.get("run_rc") not in (0, None)]
    sanitizer: dict[str, str] = {}
    for name in failed[:4]:
        if left() < 75:
            break
        sanitizer[name] = _sanitize(root / "progs" / name, warp_path)
        (out / "sanitizer.json").write_text(json.dumps(sanitizer))
    print(
        f"done at {time.time() - start:.0f} s: {len(results)} programs, {len(failed)} tile programs failed", flush=True
    )


def _sanitize(folder: Path, warp_path: Path) -> str:
    """compute-sanitizer's memcheck of the program built with line information (where a kernel stopped).

    Built against the headers its Makefile uses: a tile row's own copy (`wp_native/`, made by `make`), which
    marks Warp's tile functions for nvcc; against Warp's own headers such a program does not compile.
    """
    makefile = (folder / "Makefile").read_text()
    flags = re.search(r"^NVCCFLAGS \?= (.*)$", makefile, re.M)
    assert flags is not None
    headers = f"{warp_path}/native"
    if "wp_native/aot.h:" in makefile:
        made = subprocess.run(
            ["make", "-s", "wp_native/aot.h", f"WARP_PATH={warp_path}"], cwd=folder, capture_output=True, text=True
        )
        if made.returncode:
            return "make wp_native failed: " + made.stderr[-1500:]
        headers = "wp_native"
    command = f"nvcc {flags.group(1).replace('$(ARCH)', '90')} -lineinfo -isystem {headers} -o program_li program.cu"
    built = subprocess.run(command, shell=True, cwd=folder, capture_output=True, text=True, timeout=240)
    if built.returncode:
        return "nvcc failed: " + built.stderr[-1500:]
    try:
        text = ""
        for tool in ("memcheck", "racecheck"):  # racecheck where memcheck saw nothing: shared-memory races
            checked = subprocess.run(
                ["compute-sanitizer", "--tool", tool, "--print-limit", "3", "./program_li"],
                cwd=folder,
                capture_output=True,
                text=True,
                timeout=90,
            )
            text += f"[{tool}]\n" + (checked.stdout + checked.stderr)[-6000:]
            if "ERROR SUMMARY: 0 errors" not in checked.stdout + checked.stderr:
                break
        return text
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"compute-sanitizer did not finish: {e!r}"


def sanitize(root: Path, budget: float) -> None:
    """compute-sanitizer's memcheck of every program under DIR/progs (16 at a time), to $OUT/sanitizer.json."""
    start = time.time()
    out = Path(os.environ.get("OUT", root / "out"))
    out.mkdir(parents=True, exist_ok=True)
    root = root.resolve()
    folders = sorted(p for p in (root / "progs").iterdir() if p.is_dir())
    found: dict[str, str] = {}

    def one(folder: Path) -> str:
        if budget - (time.time() - start) < 90:
            return "not run (budget)"
        return _sanitize(folder, root / "warp")

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        for folder, text in zip(folders, pool.map(one, folders), strict=True):
            found[folder.name] = text
            (out / "sanitizer.json").write_text(json.dumps(found))
    print(f"done at {time.time() - start:.0f} s: {len(found)} programs", flush=True)


def report(results_path: Path) -> None:
    from warp_cuda_ir.evaluation.judge import judge
    from warp_cuda_ir.standalone.digest import digest_lines
    from warp_cuda_ir.standalone.stage import digests_agree

    results = json.loads(results_path.read_text())
    tally: Counter = Counter()
    listed = []
    for r in results.values():
        meta = r["meta"]
        if r.get("skipped"):
            verdict = "not run (budget)"
        elif r.get("compile_rc") != 0:
            verdict = "nvcc failed"
        elif r.get("run_rc") == "timeout":
            verdict = "timeout"
        elif r.get("run_rc") != 0:
            verdict = "crashed"
        elif r["stdout"].startswith("not run:"):
            verdict = "launches nothing"  # by design: its inputs were over the cap on what a program embeds
        elif meta["kind"] == "row":
            verdict = "agrees" if digests_agree(r["expected"], digest_lines(r["stdout"])) else "differs"
        else:
            verdict = judge(r["expected"], r["stdout"], exact=False)[0]
        tiles = "tile functions" if meta["tile"] else "no tiles"
        tally[(meta["kind"], meta["source"], meta["group"], tiles, verdict)] += 1
        judged = verdict not in ("agrees", "correct", "launches nothing")
        if judged and meta["kind"] in ("row", "gold_forward", "gold_backward"):
            listed.append(
                f"  {meta['kind']} {meta['group']} {meta['kernel']}: {verdict} {r.get('stderr', '')[-120:]!r}"
            )
    for key, count in sorted(tally.items()):
        print(" / ".join(key), count)
    print("\n".join(listed))


BATCH_GPU_SLOTS = 12  # a run took 1.1 s (median) with 6 at once beside 16 nvcc processes, mostly its start
BATCH_RUN_LIMIT_S = 15  # a GPU run; warp-lang's spinlock tests never end there
BATCH_ROWS = 32  # rows per nvcc call: ~90 batches of the default build's replayed rows keep 16 cores busy
NAMESPACE = re.compile(r"^namespace wp_row_(\d+) \{$", re.M)


def _row_meta(row: dict[str, Any]) -> dict[str, Any]:
    from warp_cuda_ir.warp_session import uses_tiles

    return {
        "id": row["id"],
        "source": row["source"],
        "group": (row.get("provenance") or {}).get("package") or row["category"],
        "kernel": row["kernel_name"],
        "tile": uses_tiles(row["cuda_forward"]),
        "backward": bool(row.get("cuda_backward")),
        "reference": row.get("standalone_reference_digest"),
    }


def batches(dest: Path, folders: list[Path]) -> None:
    import lzma

    import pyarrow.parquet as pq

    from warp_cuda_ir import extraction, writing
    from warp_cuda_ir.standalone import batch
    from warp_cuda_ir.standalone.device_headers import device_headers
    from warp_cuda_ir.standalone.program import NVCCFLAGS, launches, warp_native_dir
    from warp_cuda_ir.standalone.stage import Item, compile_items, find_tools, run_program

    if dest.exists():
        sys.exit(f"error: {dest} exists; choose a new folder")
    dest.mkdir(parents=True)
    shutil.copytree(device_headers(warp_native_dir()), dest / "native")
    rows: dict[str, dict[str, Any]] = {}
    columns = ["id", "source", "provenance", "category", "kernel_name", "cuda_forward", "cuda_backward"]
    columns += ["cuda_program", "cpu_program", "block_dim", "standalone_reference_digest"]
    for folder in folders:
        for path in writing.all_data_files(folder):
            table = pq.read_table(path)
            for row in table.select([c for c in columns if c in table.column_names]).to_pylist():
                if row.get("cuda_program") and launches(row["cuda_program"]) and row["id"] not in rows:
                    rows[row["id"]] = row
    by_block: dict[int, list[dict[str, Any]]] = {}
    for row in rows.values():
        by_block.setdefault(int(row.get("block_dim") or extraction.CUDA_BLOCK_DIM), []).append(row)
    groups = [g[i : i + BATCH_ROWS] for g in by_block.values() for i in range(0, len(g), BATCH_ROWS)]
    written = []
    for n, group in enumerate(groups):
        text = batch.batch_from_programs([r["cuda_program"] for r in group], "cuda")
        written.append({"name": f"b{n:04d}", "text": text, "ids": [r["id"] for r in group]})
    flags = [f.replace("$(ARCH)", "90") for f in NVCCFLAGS]
    manifest = {"nvccflags": flags, "batches": written, "meta": {i: _row_meta(r) for i, r in rows.items()}}
    with lzma.open(dest / "batches.json.xz", "wt", preset=6) as f:
        json.dump(manifest, f)
    print(f"{dest}: {len(rows)} rows in {len(written)} batches", flush=True)

    # The CPU twins, here: the same rows, batched as the pass batches them.
    tools = find_tools()
    work = dest / "twin_work"
    work.mkdir()
    twins: dict[str, dict[str, Any]] = {}

    def twin_batch(n: int, group: list[dict[str, Any]]) -> None:
        items = [Item(r["id"], r, None) for r in group]
        for item, (status, log, binary, index) in zip(
            items, compile_items(tools, "cpu", items, work, f"t{n}"), strict=True
        ):
            if binary is None:
                twins[item.key] = {"status": f"compile {status}", "error": (log or "")[-300:], "lines": []}
                continue
            run_status, error, lines = run_program(binary, index)
            twins[item.key] = {"status": run_status, "error": error, "lines": lines}

    begun = time.time()
    cpu_groups = [list(rows.values())[i : i + BATCH_ROWS] for i in range(0, len(rows), BATCH_ROWS)]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for count, _ in enumerate(pool.map(twin_batch, range(len(cpu_groups)), cpu_groups), 1):
            print(f"twins: {count}/{len(cpu_groups)} batches at {time.time() - begun:.0f} s", flush=True)
    shutil.rmtree(work)
    (dest / "twins.json").write_text(json.dumps(twins))


def _subset(text: str, keep: list[int]) -> str:
    """A batch's source with only rows `keep` (its `wp_row_<k>` namespaces) and a `main` that runs them by k."""
    marks = list(NAMESPACE.finditer(text))
    head = text[: marks[0].start()]
    dispatch = text.index("int main(int argc, char** argv) {")
    bodies = {
        int(m.group(1)): text[m.start() : (marks[i + 1].start() if i + 1 < len(marks) else dispatch)]
        for i, m in enumerate(marks)
    }
    main = text[dispatch:]
    cases = "".join(f"    case {k}: return wp_row_{k}::main();\n" for k in keep)
    main = re.sub(
        r"(switch \(k\) \{\n).*?(\n    \}\n    return 2;)",
        lambda m: m.group(1) + cases.rstrip("\n") + m.group(2),
        main,
        flags=re.S,
    )
    return head + "".join(bodies[k] for k in keep) + main


def run_batches(root: Path, budget: float) -> None:
    import lzma

    progress = _Results(root, budget)
    start, results, lock, left, save = progress.start, progress.rows, progress.lock, progress.left, progress.save
    root = root.resolve()
    with lzma.open(root / "batches.json.xz", "rt") as f:
        manifest = json.load(f)
    work = root / "work"
    work.mkdir(exist_ok=True)

    def compile_rows(name: str, text: str, keep: list[int]) -> dict[int, tuple[str, str, Path | None]]:
        if left() < 45:
            return {k: ("not run (budget)", "", None) for k in keep}
        source = work / f"{name}.cu"
        source.write_text(_subset(text, keep))
        command = [
            "nvcc",
            *manifest["nvccflags"],
            "-isystem",
            str(root / "native"),
            "-o",
            str(work / name),
            str(source),
        ]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=max(10, left() - 20))
            status, log = ("ok" if done.returncode == 0 else "error"), done.stderr[-2000:]
        except subprocess.TimeoutExpired:
            status, log = "timeout", ""
        if status == "ok" or len(keep) == 1:
            return {k: (status, log, work / name if status == "ok" else None) for k in keep}
        half = len(keep) // 2
        return compile_rows(name + "a", text, keep[:half]) | compile_rows(name + "b", text, keep[half:])

    def run_row(row_id: str, k: int, binary: Path, result: dict[str, Any]) -> None:
        ran_at = time.time()
        if left() < BATCH_RUN_LIMIT_S + 5:
            result["run_rc"] = "not run (budget)"
        else:
            try:
                ran = subprocess.run([str(binary), str(k)], capture_output=True, text=True, timeout=BATCH_RUN_LIMIT_S)
                result |= {"run_rc": ran.returncode, "stdout": ran.stdout[-20_000:], "stderr": ran.stderr[-1000:]}
            except subprocess.TimeoutExpired as e:
                printed = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
                result |= {"run_rc": "timeout", "stdout": printed[-20_000:], "stderr": ""}
        result["run_s"] = round(time.time() - ran_at, 2)
        with lock:
            results[row_id] = result

    # Compiles on every core, runs GPU_SLOTS at a time in a pool of their own, so a batch's runs never hold a
    # compiler's thread.
    runs = concurrent.futures.ThreadPoolExecutor(BATCH_GPU_SLOTS)
    pending = []

    def one(entry: dict[str, Any]) -> None:
        begun = time.time()
        keep = entry.get("ks") or list(range(len(entry["ids"])))  # "ks": a rerun's rows of the batch
        compiled = compile_rows(entry["name"], entry["text"], keep)
        seconds = round(time.time() - begun, 1)
        for k, row_id in zip(keep, entry["ids"], strict=True):
            status, log, binary = compiled[k]
            result: dict[str, Any] = {
                "compile": status,
                "compile_log": log if status != "ok" else "",
                "batch_s": seconds,
            }
            if binary is None:
                with lock:
                    results[row_id] = result
            else:
                pending.append(runs.submit(run_row, row_id, k, binary, result))

    subprocess.run(
        "nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1", shell=True
    )
    entries = manifest["batches"]
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        for count, _ in enumerate(pool.map(one, entries), 1):
            if count % 10 == 0:
                save()
                print(
                    f"{count}/{len(entries)} batches compiled, {len(results)} rows done at {time.time() - start:.0f} s",
                    flush=True,
                )
    for count, future in enumerate(concurrent.futures.as_completed(pending), 1):
        future.result()
        if count % 500 == 0:
            save()
            print(f"{len(results)} rows done at {time.time() - start:.0f} s", flush=True)
    runs.shutdown()
    save()
    print(f"done at {time.time() - start:.0f} s: {len(results)} rows", flush=True)


def compare(root: Path, results_path: Path) -> None:
    import lzma

    from warp_cuda_ir.standalone.digest import digest_lines
    from warp_cuda_ir.standalone.stage import digests_agree

    with lzma.open(root / "batches.json.xz", "rt") as f:
        meta = json.load(f)["meta"]
    twins = json.loads((root / "twins.json").read_text())
    results = json.loads(results_path.read_text())
    tally: Counter = Counter()
    listed = []
    for row_id, m in meta.items():
        r, twin = results.get(row_id), twins.get(row_id, {})
        reference = m["reference"].splitlines() if m["reference"] else None
        gpu = digest_lines(r.get("stdout") or "") if r else []
        if r is None or "not run (budget)" in (r["compile"], r.get("run_rc")):
            verdict = "not run (budget)"
        elif r["compile"] != "ok":
            verdict = f"nvcc {r['compile']}"
        elif r.get("run_rc") == "timeout":
            verdict = "GPU run timeout"
        elif r.get("run_rc") != 0:
            verdict = "GPU run crashed"
        elif twin.get("status") != "ok":
            verdict = f"twin {twin.get('status')}"
        else:
            verdict = "agrees with twin" if digests_agree(twin["lines"], gpu) else "differs from twin"
        kind = "tile" if m["tile"] else "no tile"
        tally[(m["source"], m["group"] if m["source"] == "real" else "generated", kind, verdict)] += 1
        if reference is not None and r is not None and r.get("run_rc") == 0:
            tally[(m["source"], "vs Warp's CPU launch", kind, str(digests_agree(reference, gpu)))] += 1
        if verdict not in ("agrees with twin", "not run (budget)"):
            why = (r or {}).get("stderr") or twin.get("error") or (r or {}).get("compile_log") or ""
            listed.append(f"  {m['group']} {m['kernel']} ({kind}): {verdict} {why[-160:]!r}")
    for key, count in sorted(tally.items()):
        print(" / ".join(key), count)
    print("\n".join(sorted(listed)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    # Each command's positional arguments: (name, type, nargs).
    commands: dict[str, list[tuple[str, type, str | None]]] = {
        "export": [("dest", Path, None), ("folders", Path, "+")],
        "run": [("root", Path, None), ("budget", float, None)],
        "sanitize": [("root", Path, None), ("budget", float, None)],
        "report": [("results", Path, None)],
        "batches": [("dest", Path, None), ("folders", Path, "+")],
        "run-batches": [("root", Path, None), ("budget", float, None)],
        "compare": [("root", Path, None), ("results", Path, None)],
    }
    for command, arguments in commands.items():
        parser_of = sub.add_parser(command)
        for name, kind, nargs in arguments:
            parser_of.add_argument(name, type=kind, nargs=nargs)
        if command == "export":
            parser_of.add_argument("--candidates", type=int, default=0)
    args = parser.parse_args()
    if args.command == "export":
        export(args.dest, args.folders, args.candidates)
    elif args.command == "run":
        run(args.root, args.budget)
    elif args.command == "sanitize":
        sanitize(args.root, args.budget)
    elif args.command == "batches":
        batches(args.dest, args.folders)
    elif args.command == "run-batches":
        run_batches(args.root, args.budget)
    elif args.command == "compare":
        compare(args.root, args.results)
    else:
        report(args.results)


if __name__ == "__main__":
    main()
