"""One capture job's process: install the capture, then run a script, a module or pytest in it.

Run by `warp_cuda_ir.capture.jobs` as `python -m warp_cuda_ir.capture.child CONFIG_JSON`, or forked by a
fork server that ran `prepare` once (`capture.forkserver`), in a fresh working directory, with a time limit
enforced (and the process group killed) by the parent. The config:
  {"targets": [[package, version, root, base, sys_path], ...], "out": dir, "per_kernel": n,
   "run": {"mode": "path" | "module" | "pytest" | "unittest", "target": ..., "args": [...]}, "no_backward": bool}
The exit code is the program's (pytest's or unittest's for tests); launches recorded before a crash stay on disk.
`unittest` loads the target module's tests by name and runs them the way Warp runs its own suite (not as
`__main__`: Warp's test files clear the kernel cache there, and pytest collects their helpers as tests).
"""

from __future__ import annotations

import json
import math
import os
import resource
import runpy
import sys
from typing import Any

from warp_cuda_ir import warp_session
from warp_cuda_ir.capture import keys, record
from warp_cuda_ir.capture.hook import Capture, install_hook


def prepare(targets: list[keys.Target], no_backward: bool) -> None:
    """What a job's process does before its program, whichever program it runs: the targets importable,
    Warp's settings for the modules the program will create, and the launch hook in place before any
    package binds Warp's launch by name. A fork server (`capture.forkserver`) does this once for its jobs."""
    for t in targets:
        if t.sys_path not in sys.path:
            sys.path.insert(0, t.sys_path)
    import warp as wp

    wp.config.log_level = wp.LOG_WARNING  # as `warp_session.init_warp` sets it, before any import logs
    wp.config.optimization_level = record.CPU_OPTIMIZATION_LEVEL
    if no_backward:
        # Modules the program creates from here on compile their forward code only: half the CPU compile
        # time of a medium kernel (facts.md), and programs that never differentiate do not notice.
        wp.config.enable_backward = False
    warp_session.keep_shared_kernel_cache()  # the jobs beside this one build their modules in it
    install_hook()


def limit_cpu(seconds: float) -> None:
    """In the job's process before it runs: SIGXCPU after `seconds` of CPU time, SIGKILL 5 s later if it
    goes on; no core file of that (the launches it completed are on disk already)."""
    soft = max(1, math.ceil(seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(config: dict[str, Any]) -> int:
    """Run the job's program with the capture (after `prepare`); its exit code."""
    targets = [keys.Target(*t) for t in config["targets"]]
    warp_session.init_warp()
    shared = os.environ.get("WARP_CACHE_PATH")  # set by the parent when its jobs share a kernel cache
    keep_headers = warp_session.share_precompiled_headers(shared) if shared else (lambda: None)
    # The headers are kept after the first recorded launch (its module compiled them) and at the end: jobs
    # start longest first, and a long one cut at its limit would otherwise keep them from the rest.
    Capture(targets, config["out"], int(config.get("per_kernel", 2)), first_launch=keep_headers).install()
    program = config["run"]
    code = 0
    try:
        if program["mode"] == "pytest":
            import pytest

            code = int(pytest.main(["-q", "-p", "no:cacheprovider", *program["args"], program["target"]]))
        elif program["mode"] == "unittest":
            import unittest

            suite = unittest.defaultTestLoader.loadTestsFromName(program["target"])
            outcome = unittest.TextTestRunner(stream=sys.stdout, verbosity=1).run(suite)
            print(
                f"capture child: {outcome.testsRun} tests, {len(outcome.failures)} failures, "
                f"{len(outcome.errors)} errors, {len(outcome.skipped)} skipped"
            )
            code = 0 if outcome.wasSuccessful() else 1
        else:
            sys.argv = [program["target"], *program["args"]]
            if program["mode"] == "module":
                runpy.run_module(program["target"], run_name="__main__", alter_sys=True)
            else:
                sys.path.insert(0, os.path.dirname(os.path.abspath(program["target"])))
                runpy.run_path(program["target"], run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException as e:  # the program's own failure: report it as its exit, keep what completed
        print(f"capture child: {type(e).__name__}: {e}", file=sys.stderr)
        code = 1
    keep_headers()  # block sizes and levels compiled after the first launch
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def main() -> None:
    config = json.loads(sys.argv[1])
    prepare([keys.Target(*t) for t in config["targets"]], bool(config.get("no_backward")))
    os._exit(run(config))  # the program may leave threads or atexit hooks behind (viewers, pools)


if __name__ == "__main__":
    main()
