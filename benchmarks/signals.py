"""Ctrl-C and SIGTERM in each long stage of a build, and a warm-cache build into a new folder.

    python benchmarks/signals.py [--real tests/data/capture/capfix] [--json out.json]

For each stage (harvest, capture, replay, generating) and each signal, `scripts/build.py` on the fixture
package is started with a fresh output folder, signalled as soon as the stage reports progress, and timed
until the build and every process it started are gone (processes are found by a marker in their
environment, which all of them inherit). The caches are shared so each run reaches its stage sooner; the
same command is then run to completion (it resumes), then once more into a new folder (warm cache).
Figures: seconds to stop, processes left, and wall and CPU seconds (this process's children) of the runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.executor_items import marked_processes, start_marked  # noqa: E402

STAGES = {
    "harvest": "harvesting",
    "capture": "capturing launches",
    "replay": "replaying launches",
    "generating": "generating",
}


def command(real: str, out: Path, cache: Path, target_mb: float) -> list[str]:
    return [
        sys.executable,
        str(ROOT / "scripts" / "build.py"),
        *("--out", str(out), "--real", real, "--target-mb", str(target_mb), "--workers", "2"),
        *("--seeds-per-shard", "8", "--cache-dir", str(cache)),
    ]


def interrupt(cmd: list[str], stage: str, signum: int) -> dict[str, object]:
    marker = f"signals-bench-{uuid.uuid4().hex}"
    proc = start_marked(cmd, marker)
    seen = threading.Event()
    tail: list[str] = []

    def watch() -> None:
        assert proc.stderr is not None
        buffer = b""
        while chunk := proc.stderr.read1(4096):  # type: ignore[attr-defined]
            buffer = (buffer + chunk)[-4096:]
            if STAGES[stage].encode() in buffer:
                seen.set()
        tail.append(buffer.decode(errors="replace"))

    reader = threading.Thread(target=watch, daemon=True)
    reader.start()
    while not seen.is_set() and proc.poll() is None:
        time.sleep(0.05)
    if proc.poll() is not None:
        reader.join(5)
        return {"stage": stage, "signal": signal.Signals(signum).name, "reached": False, "tail": "".join(tail)[-500:]}
    started = time.monotonic()
    running = len(marked_processes(marker, "environ"))
    proc.send_signal(signum)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
    exited = time.monotonic() - started
    while marked_processes(marker, "environ") and time.monotonic() - started < 30:
        time.sleep(0.05)
    left = marked_processes(marker, "environ")
    for pid in left:  # measured; now clean up what a failure left
        os.kill(pid, signal.SIGKILL)
    return {
        "stage": stage,
        "signal": signal.Signals(signum).name,
        "reached": True,
        "processes_when_signalled": running,
        "parent_exit_s": round(exited, 2),
        "all_gone_s": round(time.monotonic() - started, 2) if not left else None,
        "processes_left": len(left),
        "exit_code": proc.returncode,
    }


def timed(cmd: list[str]) -> dict[str, object]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "exit_code": done.returncode,
        "wall_s": round(time.monotonic() - started, 1),
        "cpu_s": round(cpu, 1),
        "stderr_tail": done.stderr[-300:] if done.returncode else "",
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--real", default=str(ROOT / "tests" / "data" / "capture" / "capfix"))
    p.add_argument("--target-mb", type=float, default=2.0)
    p.add_argument("--stages", default=",".join(STAGES), help="comma-separated, of: " + ", ".join(STAGES))
    p.add_argument("--json", type=Path)
    args = p.parse_args()
    work = Path(tempfile.mkdtemp(prefix="signals_bench_"))
    cache = work / "cache"
    figures: dict[str, object] = {"load_average_at_start": os.getloadavg(), "runs": []}
    runs: list[dict[str, object]] = figures["runs"]  # type: ignore[assignment]
    for stage in args.stages.split(","):
        for signum in (signal.SIGINT, signal.SIGTERM):
            out = work / f"out-{stage}-{int(signum)}"
            # Generated rows only, and more of them, for the generating stage: its progress shows then.
            real, target = ("none", max(args.target_mb, 20.0)) if stage == "generating" else (args.real, args.target_mb)
            runs.append(interrupt(command(real, out, cache, target), stage, signum))
            print(json.dumps(runs[-1]), flush=True)
    resume_out = work / f"out-{stage}-{int(signal.SIGTERM)}"  # the last interrupted folder: resumed
    figures["resume"] = timed(command(real, resume_out, cache, target))
    figures["cold_new_folder"] = timed(command(args.real, work / "out-cold", work / "cold-cache", args.target_mb))
    figures["warm_new_folder"] = timed(command(args.real, work / "out-warm", work / "cold-cache", args.target_mb))
    figures["load_average_at_end"] = os.getloadavg()
    print(json.dumps({k: v for k, v in figures.items() if k != "runs"}, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
