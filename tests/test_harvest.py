"""The harvester on fixture folders written for it (tests/data/harvest/) and on an installed package.

`kernels/wci_forms` holds one module per kernel form (decorator options, module options, generic kernels
with overloads, factory closures, wp.func overloads / custom grad / replay / native, structs, enums,
constants from other modules, a `__main__` block); `bad/` one file per bad input.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from warp_cuda_ir import extraction, real, warp_session
from warp_cuda_ir.harvest import (
    TargetError,
    assign_splits,
    cached_harvest,
    call_values,
    check,
    discover,
    factories,
    harvest,
    near_duplicates,
    reasons,
    split_for_file,
    write_notices,
)

DATA = Path(__file__).parent / "data" / "harvest"
KERNELS = DATA / "kernels"


@pytest.fixture(scope="module")
def forms():
    return harvest([str(KERNELS)], workers=2, import_timeout=120)


def _by_name(result, qualname: str) -> list[dict]:
    return [r for r in result.records if r["qualname"] == qualname]


def test_every_form_becomes_a_record(forms):
    names = sorted({(r["file"], r["qualname"]) for r in forms.records})
    assert names == [
        ("wci_forms/factory.py", "make_power.<locals>.power"),
        ("wci_forms/generic.py", "fill"),
        ("wci_forms/generic.py", "never_specialised"),
        ("wci_forms/main_guard.py", "guarded"),
        ("wci_forms/module_options.py", "unrolled"),
        ("wci_forms/options.py", "bounded"),
        ("wci_forms/options.py", "named"),
        ("wci_forms/options.py", "no_backward"),
        ("wci_forms/options.py", "unique_fast"),
        ("wci_forms/uses.py", "activations"),
        ("wci_forms/uses.py", "integrate"),
        ("wci_forms/uses.py", "vectors"),
    ]
    # The folder is no package, so its files load as scripts: the generic kernel nobody specialised gets an
    # overload the harvest chose, and says so (upstream overloads do not); nothing failed.
    assert forms.reasons == []
    chosen = {r["qualname"]: r["chosen_overload"] for r in forms.records if r["chosen_overload"]}
    assert chosen == {"never_specialised": "a1f4"}
    assert forms.discovered == {"kernels": 14}
    assert forms.target_errors == []


def test_records_carry_provenance(forms):
    (rec,) = _by_name(forms, "integrate")
    assert rec["package"] == "kernels" and rec["file"] == "wci_forms/uses.py"
    upstream = (KERNELS / "wci_forms" / "uses.py").read_text().splitlines(keepends=True)
    assert rec["upstream_source"] == "".join(
        upstream[rec["line"] - 1 : rec["line"] - 1 + len(rec["upstream_source"].splitlines())]
    )
    assert rec["upstream_source"].startswith("@wp.kernel\ndef integrate(")


def test_self_contained_sources_are_plain_python_with_upstream_definitions(forms):
    for rec in forms.records:
        tree = ast.parse(rec["source"])  # valid Python
        imported = {
            a.name.split(".")[0]
            for n in ast.walk(tree)
            if isinstance(n, (ast.Import, ast.ImportFrom))
            for a in (n.names if isinstance(n, ast.Import) else [ast.alias(n.module or "")])
        }
        assert imported <= {"warp", "typing", "enum", "numpy", "math"}, rec["qualname"]
        assert "wci_forms" not in rec["source"]
    (integrate,) = _by_name(forms, "integrate")
    src = integrate["source"]
    # everything it reaches, transitively, with upstream formatting (the overload's comment included)
    for piece in (
        "class Scene:",
        "class Body:",
        "def scaled(x: wp.vec3):  # an overload",
        "OFFSET = wp.vec3(1.0, 2.0, 3.0)",
        "class Shape(enum.IntEnum):",
        "SCALE = 2.5",
        "class f:\n    scaled = scaled",
    ):
        assert piece in src, piece
    assert src.index("class Body:") < src.index("class Scene:") < src.index("def integrate(")
    (act,) = _by_name(forms, "activations")
    for piece in (
        "@wp.func_grad(softplus)",
        "@wp.func_replay(clamp_unit)",
        "@wp.func_native(snippet, adj_snippet)",
        "snippet = 'return a + b;'",
        "HALF = wp.float32(0.5)",
        "COUNT = 4",
    ):
        assert piece in act["source"], piece


def test_factory_closures_and_generic_overloads_are_separate_records(forms):
    powers = _by_name(forms, "make_power.<locals>.power")
    assert sorted("exponent = 2" in r["source"] for r in powers) == [False, True]
    assert sorted("exponent = 3" in r["source"] for r in powers) == [False, True]
    assert {r["kernel_name"] for r in powers} == {"power"}
    fills = _by_name(forms, "fill")
    assert sorted(r["overload"] for r in fills) == ["a1f4_f4", "a1v3f4_v3f4"]
    assert any("wp.overload(fill, [wp.array(dtype=wp.vec3, ndim=1), wp.vec3])" in r["source"] for r in fills)


def test_options_reach_the_generated_code(forms):
    # Backward disabled upstream is enabled for codegen only (test_backward.py), and the row says which switch.
    (no_bwd,) = _by_name(forms, "no_backward")
    assert no_bwd["texts"]["backward_origin"] == extraction.ENABLED_KERNEL and no_bwd["texts"]["cuda_forward"]
    (unrolled,) = _by_name(forms, "unrolled")
    assert unrolled["texts"]["backward_origin"] == extraction.ENABLED_MODULE  # wp.set_module_options in its module
    assert "wp.set_module_options({'enable_backward': False, 'max_unroll': 4})" in unrolled["source"]
    (bounded,) = _by_name(forms, "bounded")
    assert bounded["texts"]["backward_origin"] == extraction.AS_WRITTEN
    (bounded,) = _by_name(forms, "bounded")
    assert "__launch_bounds__(128, 1)" in bounded["texts"]["cuda_forward"]
    (named,) = _by_name(forms, "named")
    assert named["kernel_name"] == "renamed_kernel"


@pytest.mark.parametrize("by", ["folder", "package name"])
def test_kernels_of_one_code_under_several_names_keep_their_names_in_every_run(by, monkeypatch):
    """`same_code/wci_keys` makes six kernels of one code (keys `same_f` down to `same_a`). They are one
    definition with equal closures, so their records are told apart by `#2`, `#3`... in the order the harvest
    announces them. Warp lists a module's kernels from a weak set, in an order that changes between runs,
    so which record carried which `name=` changed too: they are announced by key."""
    folder = DATA / "same_code"
    if by == "package name":
        monkeypatch.syspath_prepend(str(folder))
        monkeypatch.setenv("PYTHONPATH", str(folder))
    result = harvest([str(folder) if by == "folder" else "wci_keys"], workers=1, import_timeout=120)
    records = sorted(result.records, key=lambda r: (len(r["ident"]), r["ident"]))
    assert [r["ident"].rsplit("|", 1)[1].partition("#")[2] for r in records] == ["", "2", "3", "4", "5", "6"]
    assert [r["kernel_name"] for r in records] == [f"same_{s}" for s in "abcdef"]


def test_record_texts_are_what_extract_makes_of_the_source(forms):
    rec = _by_name(forms, "vectors")[0]
    texts = extraction.extract(rec["source"], rec["kernel_name"], 90, rec["block_dim"])
    assert texts.cuda_forward == rec["texts"]["cuda_forward"]
    assert texts.cpu_backward == rec["texts"]["cpu_backward"]


def test_check_catches_a_source_that_generates_other_code(forms):
    rec = _by_name(forms, "activations")[0]
    good = extraction.extract(rec["source"], rec["kernel_name"], 90, rec["block_dim"])
    changed = extraction.extract(rec["source"].replace("COUNT = 4", "COUNT = 5"), rec["kernel_name"], 90, 256)
    assert check.compare(good, good) == []
    assert check.compare(good, changed) == ["cuda_forward", "cuda_backward", "cpu_forward", "cpu_backward"]


def test_check_normalises_only_location_derived_names():
    source = (
        "import warp as wp\n\n\n@wp.func\ndef sq(x: float):\n    return x * x\n\n\n"
        "@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    i = wp.tid()\n    a[i] = sq(a[i])\n"
    )
    a = extraction.extract(source, "k")
    # The same code two lines lower, its decorator spelled out: the kernel's hash and the line numbers in
    # comments differ, the code does not.
    b = extraction.extract("\n\n" + source.replace("@wp.kernel", "@wp.kernel(enable_backward=True)"), "k")
    assert a.cuda_forward != b.cuda_forward
    assert check.compare(a, b) == []
    c = extraction.extract(source.replace("x * x", "x * x * x"), "k")
    assert check.compare(a, c) == ["cuda_helpers", "cpu_helpers"]


@pytest.mark.slow  # launches.py compiles and runs a kernel on the CPU at import (Clang: seconds, more on a busy VM)
def test_bad_files_each_give_one_reason_and_the_rest_is_harvested():
    result = harvest([str(DATA / "bad")], workers=2, import_timeout=300)
    by_file = {r.file: (r.category, r.detail) for r in result.reasons}
    assert by_file["raises.py"] == (reasons.IMPORT_FAILED, "RuntimeError: this file fails at import")
    assert by_file["exits.py"] == (reasons.IMPORT_EXITED, "sys.exit(2)")
    assert by_file["dies.py"] == (reasons.WORKER_DIED, "exit code 7 while importing")
    assert by_file["broken.py"][0] == reasons.WARP_CODEGEN_FAILED
    assert "cannot return values" in by_file["broken.py"][1]
    assert len(result.reasons) == 4
    # kernels defined before the error, beside a broken one, or launched at import are still records
    assert sorted(r["qualname"] for r in result.records) == ["before_the_error", "fine", "ramp"]
    summary = result.summary()["packages"]["bad"]
    assert summary["discovered"] == 4 and summary["generated_by_warp"] == 3 and summary["records"] == 3


def test_a_folder_of_scripts_harvests_whatever_its_files_are_called(tmp_path):
    """Scripts are run by path (`python 001.py`), so their names need not be module names."""
    scripts = tmp_path / "my scripts"
    (scripts / "more-kernels").mkdir(parents=True)
    (scripts / "shared.py").write_text("import warp as wp\n\n\n@wp.func\ndef twice(x: float):\n    return 2.0 * x\n")
    kernel = (
        "import warp as wp\n{imports}\n\n@wp.kernel\ndef {name}(a: wp.array(dtype=float)):\n"
        "    i = wp.tid()\n    a[i] = {body}\n\n\nif __name__ == '__main__':\n    raise SystemExit('ran as main')\n"
    )
    files = {
        "001.py": ("first", "", "a[i] + 1.0"),
        "cloth-sim.py": ("cloth", "from shared import twice", "twice(a[i])"),
        "02_particles.py": ("particles", "", "a[i] * a[i]"),
        "more-kernels/my kernels.py": ("nested", "", "-a[i]"),
        "plain.py": ("plain", "", "a[i] - 1.0"),
        # What `python folder` runs: loaded as a script, not as the worker's own `__main__` module.
        "__main__.py": ("entry", "", "a[i] * 2.0"),
    }
    for rel, (name, imports, body) in files.items():
        (scripts / rel).write_text(kernel.format(name=name, imports=imports, body=body))
    # A script picks a GPU and exits at top level, between its kernels: what follows is still defined.
    (scripts / "03 gpu-only.py").write_text(
        kernel.format(name="before_gpu", imports="", body="0.0")
        + "\nwp.set_device('cuda:0')\n"
        + kernel.format(name="after_gpu", imports="import sys", body="1.0")
        + "\nsys.exit(0)\n"
        + kernel.format(name="after_exit", imports="", body="2.0")
    )
    # Warp's global settings one script changes do not carry over into the next file's code.
    (scripts / "00-settings.py").write_text("import warp as wp\n\nwp.config.enable_backward = False\n")
    target = discover.resolve(str(scripts), 0)
    assert target.skipped_files == []
    # Files with a module name keep it (a sibling's `import plain` gets the same module); the rest load by path.
    by_file = {j.file: j for j in target.jobs}
    assert by_file["plain.py"].module == "plain" and by_file["plain.py"].path == str(scripts / "plain.py")
    assert by_file["001.py"].path == str(scripts / "001.py") and by_file["001.py"].module.isidentifier()
    assert len({j.module for j in target.jobs}) == len(target.jobs)
    result = harvest([str(scripts)], workers=1)
    # The file's first failure is its reason; nothing else failed.
    assert [(r.category, r.file) for r in result.reasons] == [(reasons.IMPORT_FAILED, "03 gpu-only.py")]
    got = {(r["file"], r["qualname"]) for r in result.records}
    want = {(rel, name) for rel, (name, *_) in files.items()}
    assert got == want | {("03 gpu-only.py", k) for k in ("before_gpu", "after_gpu", "after_exit")}
    cloth = next(r for r in result.records if r["qualname"] == "cloth")
    assert "def twice" in cloth["source"] and cloth["texts"]["cuda_forward"]
    # `00-settings.py` turned backward off for itself, not for the files after it.
    assert all(r["texts"]["cuda_backward"] for r in result.records)


def test_a_script_changing_warps_settings_after_its_first_kernel_harvests_as_it_does_alone(tmp_path):
    """`wp.config.enable_backward = False` (and `mode = "debug"`) after the file's first kernel: its module kept
    the options of its first kernel, and both kernels are harvested whether or not the worker had processed
    another file first (after one, both failed their check: the settings were still on while their
    self-contained texts were loaded)."""
    kernel = "@wp.kernel\ndef {name}(a: wp.array(dtype=float)):\n    i = wp.tid()\n    a[i] = wp.sin(a[i])\n"
    late = "import warp as wp\n\n" + kernel.format(name="before") + "\nwp.config.enable_backward = False\n"
    late += 'wp.config.mode = "debug"\n\n' + kernel.format(name="after")
    texts = {}
    for folder, first in (("alone", False), ("second", True)):
        scripts = tmp_path / folder
        scripts.mkdir()
        if first:
            (scripts / "01-first.py").write_text("import warp as wp\n\n" + kernel.format(name="first"))
        (scripts / "02-late.py").write_text(late)
        result = harvest([str(scripts)], workers=1)
        assert result.reasons == []
        texts[folder] = {r["qualname"]: r["texts"] for r in result.records if r["file"] == "02-late.py"}
    assert set(texts["alone"]) == {"before", "after"} and texts["second"] == texts["alone"]


def _harvest_script(folder: Path, name: str, text: str) -> list[dict]:
    """The records of a folder holding the one script `name`; none of its kernels may fail."""
    (folder / name).write_text(text)
    result = harvest([str(folder)], workers=1)
    assert result.reasons == []
    return result.records


def test_kernels_under_other_decorators_and_names_are_harvested(tmp_path):
    """Warp's `kernel` under another name (`jit = wp.kernel`, `from warp import kernel as warp_kernel`), a
    user's decorator that calls `wp.kernel` and files the kernel in a table, and `from warp import *` names
    in annotations: each kernel's self-contained text compiles as upstream's did."""
    records = _harvest_script(
        tmp_path,
        "my-aliases.py",
        "import warp\nfrom warp import *\nfrom warp import kernel as warp_kernel\n\njit = warp.kernel\n"
        "REGISTRY = {}\n\n\ndef register(name):\n    def deco(fn):\n        REGISTRY[name] = warp.kernel(fn)\n"
        "        return REGISTRY[name]\n\n    return deco\n\n\n"
        "@jit\ndef ramp(a: warp.array(dtype=float)):\n    a[warp.tid()] = 1.0\n\n\n"
        "@warp_kernel\ndef halve(a: warp.array(dtype=float)):\n    a[warp.tid()] *= 0.5\n\n\n"
        '@register("neg")\ndef negate(a: warp.array(dtype=float)):\n    a[warp.tid()] *= -1.0\n\n\n'
        "@kernel\ndef fill(out: array(dtype=float32), v: float32):\n    out[warp.tid()] = v\n",
    )
    got = {r["qualname"]: r["source"] for r in records}
    assert sorted(got) == ["fill", "halve", "negate", "ramp"]
    assert "from warp import kernel as jit" in got["ramp"] and "@jit\n" in got["ramp"]
    # The user's decorator and its table are left out; the kernel is made as the decorator made it.
    assert "register" not in got["negate"] and "negate = wp.kernel(negate)" in got["negate"]
    assert "from warp import array" in got["fill"]
    assert all(r["texts"]["cuda_forward"] for r in records)


def test_factory_kernels_the_script_made_and_dropped_are_harvested(tmp_path):
    """A script that launches what a factory returns and keeps no reference (`wp.launch(make(i), ...)` in a
    loop): the kernel its load made for the last value, which only Warp's weak registry still held, and the
    one the harvest makes for each other value."""
    records = _harvest_script(
        tmp_path,
        "02 dispatch.py",
        "import warp as wp\n\n\ndef make(k: int):\n    @wp.kernel\n    def shift(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] += float(k)\n\n    return shift\n\n\na = wp.zeros(2, dtype=float, device='cpu')\n"
        "for i in range(2):\n    wp.launch(make(i), dim=2, inputs=[a], device='cpu')\n",
    )
    assert [r["qualname"] for r in records] == ["make.<locals>.shift"] * 2
    assert sorted("k = 1" in r["source"] for r in records) == [False, True]


def test_kernels_of_objects_made_and_dropped_at_load_are_harvested(tmp_path):
    """A kernel built in a `cached_property` of an object the loop drops: only Warp's weak registry held the
    first one, which the harvest cannot make itself (it reads `self`)."""
    records = _harvest_script(
        tmp_path,
        "stencils.py",
        "from functools import cached_property\n\nimport warp as wp\n\n\nclass Op:\n"
        "    def __init__(self, w):\n        self.w = w\n\n    @cached_property\n    def kernel(self):\n"
        "        w = self.w\n\n        @wp.kernel\n        def apply(a: wp.array(dtype=float)):\n"
        "            a[wp.tid()] *= w\n\n        return apply\n\n\n"
        "for weight in (2.0, 3.0):\n    op = Op(weight)\n    op.kernel\n",
    )
    assert sorted("w = 2.0" in r["source"] for r in records) == [False, True]


def test_same_named_modules_of_two_subfolders_stay_apart(tmp_path):
    """`from utils import cell` in `a/run.py` and in `b/run.py` (and in `b/c/d/deep.py`, which puts `b/` on
    its path) means each folder's own `utils.py`, as `python b/run.py` has it, though one worker runs them all."""
    helper = "import warp as wp\n\n\n@wp.func\ndef cell(x: float) -> float:\n    return {body}\n"
    run = (
        "{path}import warp as wp\nfrom utils import cell\n\n\n@wp.kernel\n"
        "def {name}(a: wp.array(dtype=float)):\n    a[wp.tid()] = cell(a[wp.tid()])\n"
    )
    deep_path = "import sys\nfrom pathlib import Path\n\nsys.path.insert(0, str(Path(__file__).parents[2]))\n"
    files = {
        "a/utils.py": helper.format(body="x + 1.0"),
        "b/utils.py": helper.format(body="x * 3.0"),
        "a/run.py": run.format(path="", name="run_a"),
        "b/run.py": run.format(path="", name="run_b"),
        "b/c/d/deep.py": run.format(path=deep_path, name="run_deep"),
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result = harvest([str(tmp_path)], workers=1)
    assert result.reasons == []
    got = {r["qualname"]: r["source"] for r in result.records}
    assert "x + 1.0" in got["run_a"] and "x * 3.0" not in got["run_a"]
    assert "x * 3.0" in got["run_b"] and "x * 3.0" in got["run_deep"]


def test_a_kernel_renamed_after_its_decorator_keeps_its_name(tmp_path):
    """A factory that tells its kernels apart by `kernel.key = ...`: the self-contained text renames it too."""
    records = _harvest_script(
        tmp_path,
        "named-filters.py",
        "import warp as wp\n\n\ndef make(name, w):\n    @wp.kernel\n    def box(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] *= w\n\n    box.key = f'box_{name}'\n    return box\n\n\n"
        "FILTERS = {n: make(n, w) for n, w in [('narrow', 2.0), ('wide', 3.0)]}\n",
    )
    assert sorted(r["source"].splitlines()[-1] for r in records) == ["box.key = 'box_narrow'", "box.key = 'box_wide'"]


def test_every_arm_of_a_match_statement_keeps_its_kernel(tmp_path):
    """One kernel name defined in each arm of a `match`, one arm taken: Warp holds only the latest kernel
    of a name, so the arms the harvest defines itself are held until announced."""
    arm = "    case {case}:\n\n        @wp.kernel\n        def step(a: wp.array(dtype=float)):\n"
    arm += "            a[wp.tid()] {op}\n\n"
    text = "import warp as wp\n\nMODE = 'b'\n\nmatch MODE:\n"
    text += "".join(arm.format(case=c, op=op) for c, op in [("'a'", "+= 1.0"), ("'b'", "*= 2.0"), ("_", "-= 1.0")])
    records = _harvest_script(tmp_path, "3-arms.py", text)
    assert sorted(r["line"] for r in records) == [8, 14, 20]


def test_a_kernel_a_script_makes_from_text_gets_a_reason_at_the_statement(tmp_path):
    """A kernel `exec`'d from a formatted template has its text in no file of the folder: no record, and a
    reason on the script's line that made it, where it used to vanish without one."""
    (tmp_path / "from-text.py").write_text(
        "import linecache\n\nimport warp as wp\n\nSRC = '@wp.kernel\\ndef made(a: wp.array(dtype=float)):\\n"
        "    a[wp.tid()] = 1.0\\n'\n\n\ndef build():\n    linecache.cache['<tpl>'] = (len(SRC), None, "
        "SRC.splitlines(True), '<tpl>')\n    ns = {'wp': wp}\n    exec(compile(SRC, '<tpl>', 'exec'), ns)\n"
        "    return ns['made']\n\n\nkernel = build()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert result.records == []
    assert [(r.category, r.file, r.line, r.kernel) for r in result.reasons] == [
        (reasons.NO_SOURCE, "from-text.py", 15, "made")
    ]
    assert "'<tpl>'" in result.reasons[0].detail


def test_a_factory_called_over_pairs_is_made_for_those_pairs(tmp_path):
    """`make(r, w)` in `for r, w in [(1, 1.0), (2, 0.5)]`: the pairs the loop gives, not every r with every w."""
    records = _harvest_script(
        tmp_path,
        "pairs.py",
        "import warp as wp\n\n\ndef make(r: int, w: float):\n    @wp.kernel\n"
        "    def blend(a: wp.array(dtype=float)):\n        a[wp.tid()] = w * float(r)\n\n    return blend\n\n\n"
        "def main():\n    for r, w in [(1, 1.0), (2, 0.5)]:\n        make(r, w)\n\n\n"
        "if __name__ == '__main__':\n    main()\n",
    )
    assert sorted(r["factory_call"] for r in records) == [
        "make(r=1, w=1.0) (the call at line 14)",
        "make(r=2, w=0.5) (the call at line 14)",
    ]


def test_a_factory_kernel_in_a_match_arm_is_made(tmp_path):
    """A factory choosing its kernel in `match mode:` arms, called only for the first arm: the kernel of
    the other arm (a literal-or pattern) is made from the factory's parameters too; one under a capturing
    `case other:`, which could rebind what it captures, is refused with its reason."""
    text = (
        "import warp as wp\n\n\ndef make(mode: str, dt: float):\n    match mode:\n"
        "        case 'a':\n            @wp.kernel\n            def step_a(x: wp.array(dtype=float)):\n"
        "                x[wp.tid()] += dt\n\n            return step_a\n"
        "        case 'b' | 'c':\n            @wp.kernel\n            def step_b(x: wp.array(dtype=float)):\n"
        "                x[wp.tid()] -= dt\n\n            return step_b\n"
        "        case other:\n            @wp.kernel\n            def step_c(x: wp.array(dtype=float)):\n"
        "                x[wp.tid()] *= dt\n\n            return step_c\n\n\nmake('a', 0.5)\n"
    )
    (tmp_path / "match_step.py").write_text(text)
    result = harvest([str(tmp_path)], workers=1)
    got = {r["qualname"]: r for r in result.records}
    assert sorted(got) == ["make.<locals>.step_a", "make.<locals>.step_b"]
    assert "dt = 0.5" in got["make.<locals>.step_b"]["source"]
    assert got["make.<locals>.step_b"]["texts"]["cuda_forward"]
    problems = {p.kernel.name: p.problem for p in factories.plans(ast.parse(text), text, "m.py", lambda d: True)}
    assert problems["step_b"] is None
    assert problems["step_c"] == "defined inside a `while`, a loop's `else` or a capturing `case` of make"


def test_a_settings_object_read_in_wp_static_is_written_as_a_class(tmp_path):
    """A dataclass instance a kernel reads fields of in `wp.static` (`SETTINGS.boundary is Boundary.WRAP`):
    a class holding those fields, enum members kept members, so the static test is the same."""
    records = _harvest_script(
        tmp_path,
        "enum-settings.py",
        "import enum\nfrom dataclasses import dataclass\n\nimport warp as wp\n\n\n"
        "class Boundary(enum.Enum):\n    WRAP = 'wrap'\n    CLAMP = 'clamp'\n\n\n"
        "@dataclass\nclass Settings:\n    boundary: Boundary = Boundary.WRAP\n    scale: float = 2.0\n\n\n"
        "SETTINGS = Settings()\n\n\n@wp.kernel\ndef wrap(a: wp.array(dtype=int), n: int):\n    i = wp.tid()\n"
        "    if wp.static(SETTINGS.boundary is Boundary.WRAP):\n        a[i] = a[i] % n\n"
        "    else:\n        a[i] = wp.min(a[i], n - 1) * wp.static(int(SETTINGS.scale))\n",
    )
    (record,) = records
    assert "class SETTINGS:\n    boundary = Boundary.WRAP\n" in record["source"]
    assert "wp::mod" in record["texts"]["cpu_forward"] and "wp::min" not in record["texts"]["cpu_forward"]


def test_a_kernel_in_a_function_that_imports_warp_itself_is_harvested(tmp_path):
    """`import warp as wp` only inside the functions that define kernels (no top-level import): the kernels
    read the module from the function, in their bodies and in their annotations only; the imports under an
    `if` are not the function's on every call, so that kernel is left out."""
    records = _harvest_script(
        tmp_path,
        "late-import.py",
        "def histogram(n):\n    import numpy as np\n    import warp as wp\n\n    @wp.kernel\n"
        "    def clear(a: wp.array(dtype=int)):\n        a[wp.tid()] = 0\n\n    return clear\n\n\n"
        "def scan():\n    import warp\n\n    @warp.kernel\n    def serial(c: warp.array(dtype=int)):\n"
        "        for i in range(1, c.shape[0]):\n            c[i] += c[i - 1]\n\n    return serial\n\n\n"
        "def maybe(fast):\n    if fast:\n        import warp as wp\n\n    @wp.kernel\n"
        "    def never(a: wp.array(dtype=int)):\n        a[wp.tid()] = 1\n\n    return never\n",
    )
    got = {r["qualname"]: r["source"] for r in records}
    assert sorted(got) == ["histogram.<locals>.clear", "scan.<locals>.serial"]
    assert "import warp as wp\n" in got["histogram.<locals>.clear"] and "numpy" not in got["histogram.<locals>.clear"]
    assert "import warp\n" in got["scan.<locals>.serial"]


def test_a_script_reads_its_folders_data_files_by_relative_path(tmp_path):
    """`open("params.json")` at import, as `python load.py` run from the script's folder reads it, and a
    subfolder's file too; what the script writes there lands in the harvest's copy, not the user's folder."""
    (tmp_path / "params.json").write_text('{"k": 2.5}')
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "n.txt").write_text("3")
    records = _harvest_script(
        tmp_path,
        "load.py",
        "import json\n\nimport warp as wp\n\nK = wp.constant(json.load(open('params.json'))['k'])\n"
        "N = int(open('data/n.txt').read())\nopen('params.json', 'w').write('overwritten')\n\n\n"
        "@wp.kernel\ndef scale(a: wp.array(dtype=float)):\n    a[wp.tid()] *= K * float(N)\n",
    )
    assert "K = 2.5" in records[0]["source"] and "N = 3" in records[0]["source"]
    assert (tmp_path / "params.json").read_text() == '{"k": 2.5}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "load.py", "params.json"]


def test_a_generic_kernel_is_specialised_for_the_types_its_launches_give(tmp_path):
    """A generic kernel launched under `__main__` in a loop over (vector, scalar) pairs: one record per pair
    the loop gives (not every vector with every scalar), none the harvest picks."""
    records = _harvest_script(
        tmp_path,
        "generic-launch.py",
        "from typing import Any\n\nimport warp as wp\n\n\n@wp.kernel\n"
        "def shrink(v: wp.array(dtype=Any), s: Any):\n    i = wp.tid()\n    v[i] = v[i] * s\n\n\n"
        "if __name__ == '__main__':\n    for vt, st in ((wp.vec3, wp.float32), (wp.vec2d, wp.float64)):\n"
        "        v = wp.zeros(3, dtype=vt, device='cpu')\n"
        "        wp.launch(shrink, 3, inputs=[v, st(0.5)], device='cpu')\n",
    )
    assert sorted((r["overload"], r["chosen_overload"]) for r in records) == [
        ("a1v2f8_f8", None),
        ("a1v3f4_f4", None),
    ]


def test_a_generic_kernel_launched_in_a_parametrized_test_is_specialised_for_each_dtype(tmp_path):
    """`@pytest.mark.parametrize("dtype", [wp.float32, wp.float64])` on a test that launches a generic kernel
    with arrays of that dtype: the overloads the test runner's calls make."""
    records = _harvest_script(
        tmp_path,
        "test_generic.py",
        "from typing import Any\n\nimport pytest\nimport warp as wp\n\n\n@wp.kernel\n"
        "def add(a: wp.array(dtype=Any), b: wp.array(dtype=Any)):\n    i = wp.tid()\n    a[i] = a[i] + b[i]\n\n\n"
        "@pytest.mark.parametrize('dtype', [wp.float64, wp.int32])\ndef test_add(dtype):\n"
        "    a = wp.zeros(2, dtype=dtype, device='cpu')\n    wp.launch(add, 2, inputs=[a, a], device='cpu')\n",
    )
    assert sorted(r["overload"] for r in records) == ["a1f8_a1f8", "a1i4_a1i4"]


@pytest.mark.slow
def test_a_users_folder_harvests_as_its_scripts_run():
    """`user_folder/`: a subfolder's script importing its sibling by name, a comment saved as cp1252 with
    no encoding line, a file named `random.py`, `from warp import kernel, func`, a `@staticmethod` kernel,
    kernels a method makes from `self`'s attributes and its class body's constant (or a method `__init__`
    calls), one of them after a method call that may change them (left with its reason), a table of
    `wp.func`s, a test's `pytest.mark.parametrize`, a dataclass config given to a factory, factories called
    in a comprehension and with `**cfg`, a global the `__main__` block sets, a kernel in `main()` that reads
    an option of its parser, and one only the `__main__` block's loop binds (left out, with why)."""
    result = harvest([str(DATA / "user_folder")], workers=1)
    got: dict[tuple[str, str], list[dict]] = {}
    for r in result.records:
        got.setdefault((r["file"], r["qualname"]), []).append(r)
    assert set(got) == {
        ("sims/fluid-2d.py", "relax"),
        ("cp1252.py", "grid_fill"),
        ("random.py", "uniform"),
        ("bare names.py", "doubled"),
        ("class-kernels.py", "Solver.residual"),
        ("class-kernels.py", "Solver.__init__.<locals>.window"),
        ("class-kernels.py", "Solver._make_scaled.<locals>.scaled"),
        ("test_tables.py", "each_op"),
        ("test_tables.py", "test_negate.<locals>.negate"),
        ("test_tables.py", "make_step.<locals>.step"),
        ("04-configs.py", "make_op.<locals>.apply"),
        ("04-configs.py", "make_axpy.<locals>.axpy"),
        ("04-configs.py", "step"),
        ("04-configs.py", "main.<locals>.ramp"),
    }
    (relax,), (doubled,), (residual,) = (
        got[k]
        for k in [("sims/fluid-2d.py", "relax"), ("bare names.py", "doubled"), ("class-kernels.py", "Solver.residual")]
    )
    assert "def halve" in relax["source"] and "from warp import kernel" in doubled["source"]
    assert "staticmethod" not in residual["source"]
    (window,) = got[("class-kernels.py", "Solver.__init__.<locals>.window")]
    assert window["factory_call"] == "Solver.__init__(n=16, width=2) (the call at line 49)"
    assert "half = 8" in window["source"] and "w = 2" in window["source"]
    (scaled,) = got[("class-kernels.py", "Solver._make_scaled.<locals>.scaled")]
    assert scaled["factory_call"] == "Solver.__init__(n=16) (the call at line 49)" and "s = 16.0" in scaled["source"]
    (each_op,) = got[("test_tables.py", "each_op")]
    assert "OPS = [plus, times]" in each_op["source"]
    calls = sorted(r["factory_call"] for r in got[("test_tables.py", "test_negate.<locals>.negate")])
    assert calls == [f"test_negate(dtype={t}) (parametrized at line 27)" for t in ("float32", "float64")]
    (step,) = got[("test_tables.py", "make_step.<locals>.step")]
    assert (
        step["factory_call"] == "make_step(cfg=Config(dt=0.25)) (the call at line 50)" and "dt = 0.25" in step["source"]
    )
    made = sorted(
        r["factory_call"]
        for k in ("op.<locals>.apply", "axpy.<locals>.axpy")
        for r in got[("04-configs.py", f"make_{k}")]
    )
    assert made == [
        "make_axpy(alpha=0.5, dtype=float32) (the call at line 36)",
        "make_axpy(alpha=2.0, dtype=float64) (the call at line 36)",
        "make_op(op='negate') (the call at line 35)",
        "make_op(op='square') (the call at line 35)",
    ]
    (main_global,) = got[("04-configs.py", "step")]
    assert "DT = 0.25" in main_global["source"]
    (ramp,) = got[("04-configs.py", "main.<locals>.ramp")]
    assert ramp["factory_call"] == "main()" and "n = 16" in ramp["source"]
    assert [(r.category, r.file, r.kernel) for r in result.reasons] == [
        (reasons.FACTORY_NOT_MADE, "04-configs.py", "typed"),
        (reasons.FACTORY_NOT_MADE, "class-kernels.py", "Solver.__init__.<locals>.after_configure"),
    ]
    assert "a name only that run binds: name 'dtype' is not defined" in result.reasons[0].detail
    assert result.reasons[1].detail == "self is changed in place: self.configure()"


@pytest.mark.slow
def test_what_a_script_settles_only_when_run_is_harvested(tmp_path, monkeypatch):
    """`scripts/`: a tile kernel whose code needs the block size its launch names, kernels defined inside
    functions the script's top level never calls or under `if __name__ == "__main__":`, generic kernels
    nothing specialises, a Warp module name two scripts both use, and a Warp module Warp does not list."""
    monkeypatch.chdir(tmp_path)  # the user's folder: a script's files must not land here
    result = harvest([str(DATA / "scripts")], workers=1)  # one process: the scripts meet there
    assert list(tmp_path.iterdir()) == []
    # A kernel of a `wp.Module` object, which Warp's registry does not list, is found; its self-contained
    # text cannot be written (the module object is no literal): that is its reason.
    # `make_offset` is called nowhere: its kernel has the reason it was not made.
    assert [(r.category, r.file, r.kernel) for r in result.reasons] == [
        (reasons.SELF_CONTAINED_UNSUPPORTED, "001.py", "offset"),
        (reasons.FACTORY_NOT_MADE, "my-kernels.py", "make_offset.<locals>.add_offset"),
    ]
    got = {(r["file"], r["qualname"]): r for r in result.records}
    assert set(got) == {
        ("001.py", "scale"),
        ("my-kernels.py", "scale"),
        ("my-kernels.py", "fft_rows"),
        ("my-kernels.py", "Simulation.step.<locals>.advance"),
        ("my-kernels.py", "main.<locals>.clamp_all"),
        ("my-kernels.py", "scale_blocks"),
        ("my-kernels.py", "trace_blocks"),
        ("my-kernels.py", "negate"),
    }  # not `make_offset.<locals>.add_offset`: its code needs the factory's argument
    fft = got[("my-kernels.py", "fft_rows")]
    assert fft["block_dim"] == 8 and "tile_fft" in fft["texts"]["cuda_forward"]
    # Each script's `scale` is its own kernel, checked against Warp's code for that script alone.
    assert "+ 1.0" in got[("001.py", "scale")]["source"] and "SCALE" in got[("my-kernels.py", "scale")]["source"]
    clamp = got[("my-kernels.py", "main.<locals>.clamp_all")]
    assert clamp["line"] == 69 and clamp["upstream_source"].lstrip().startswith("@wp.kernel(enable_backward=False)")
    assert clamp["texts"]["cuda_forward"] and clamp["texts"]["backward_origin"] == extraction.ENABLED_KERNEL
    # Generic kernels nothing specialised: the first candidate type Warp generates code for, said so.
    scale_blocks, trace_blocks = got[("my-kernels.py", "scale_blocks")], got[("my-kernels.py", "trace_blocks")]
    assert scale_blocks["chosen_overload"] == scale_blocks["overload"] == "a1f4_a1f4"
    assert "wp.overload(scale_blocks, [wp.array(dtype=wp.float32" in scale_blocks["source"]
    assert (
        trace_blocks["chosen_overload"].startswith("a1m33f4")
        and "wp::mat_t<3, 3, wp::float32>" in trace_blocks["texts"]["cuda_forward"]
    )
    assert all(r["chosen_overload"] is None for r in result.records if r not in (scale_blocks, trace_blocks))
    rows = real.real_rows(result.records).rows
    assert sorted(r["provenance"]["chosen_overload"] or "" for r in rows)[-2:] == [
        "a1f4_a1f4",
        trace_blocks["overload"],
    ]


def test_factory_kernels_are_made_for_the_values_the_script_calls_them_with(tmp_path, monkeypatch):
    """`factories/001.py`: factories called in `main()`, a loop, a class's `__init__` and an `argparse`
    default, never by the script's load; only the statements a kernel's definition needs run."""
    from warp_cuda_ir import warp_session
    from warp_cuda_ir.harvest import worker

    warp_session.init_warp()
    monkeypatch.chdir(tmp_path)  # `make_and_launch` writes a file and launches: none of that may run
    made = worker.FactoryKernels()
    worker._load_from_path("__wci_test_factories_001__", str(DATA / "factories" / "001.py"), made)
    assert list(tmp_path.iterdir()) == []
    assert sorted(made.calls.values()) == [
        "make_and_launch(offset=1.5) (the call at line 69)",  # by main(), which the load does not run
        "make_fill(dtype=float32, value=3.0) (the call at line 59)",  # a loop variable and an argparse default
        "make_fill(dtype=float64, value=3.0) (the call at line 59)",
        "make_scaled(n=4, scale=2.0) (the call at line 54)",  # `Solver(n)` for n in SIZES, order's default
        "make_scaled(n=8, scale=2.0) (the call at line 54)",
    ]
    (line, qualname, why), *others = made.unmade
    assert not others and (line, qualname) == (45, "make_unknown.<locals>.unknown")
    assert "opens 'k.txt', no file of the script's folder" in why  # read in `main()`, but no file of its folder
    kernels = {made.calls[id(k)]: k for k in made.kernels}
    scaled = kernels["make_scaled(n=8, scale=2.0) (the call at line 54)"]
    assert scaled.func.__qualname__ == "make_scaled.<locals>.scaled" and scaled.func.__code__.co_firstlineno == 25

    # `my-kernels.py`: a test function's local and its loop's variable, and factories the load calls (not made
    # again). Its `make_zero(wp.float64)` reads the argument in an annotation: the script's pieces compile
    # without the harvester's `from __future__ import annotations`, which made it a string Warp could not
    # evaluate.
    made = worker.FactoryKernels()
    worker._load_from_path("__wci_test_factories_mk__", str(DATA / "factories" / "my-kernels.py"), made)
    assert list(made.calls.values()) == [
        "test_captured_constant()",
        "test_each_dtype(), in the loop at dtype=float16",
        "test_each_dtype(), in the loop at dtype=float64",
    ]
    assert not made.unmade
    assert len(made.redundant) == 3  # make_power(2), make_power(3), make_zero(wp.float64): the load made them


@pytest.mark.slow
def test_scripts_beside_an_init_file_are_loaded_by_path(tmp_path):
    """A folder with an `__init__.py` is a package, but `001.py` in it is no module name: it is a script, run
    as `python 001.py` runs it (importing its sibling by name); `plain.py` still imports as a module."""
    folder = tmp_path / "my_kernels"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "utils.py").write_text("import warp as wp\n\n\n@wp.func\ndef twice(x: float):\n    return 2.0 * x\n")
    kernel = "import warp as wp\n{imports}\n\n\n@wp.kernel\n"
    kernel += "def {name}(a: wp.array(dtype=float)):\n    a[wp.tid()] = {body}\n"
    (folder / "001.py").write_text(kernel.format(imports="from utils import twice", name="first", body="twice(1.0)"))
    (folder / "plain.py").write_text(kernel.format(imports="from .utils import twice", name="plain", body="twice(2.0)"))
    result = harvest([str(folder)], workers=1)
    assert sorted((r["file"], r["qualname"]) for r in result.records) == [("001.py", "first"), ("plain.py", "plain")]
    assert result.reasons == []


def test_a_folder_with_an_init_file_runs_its_files_as_scripts(tmp_path):
    """An `__init__.py` at the top of a folder of scripts (for pytest or an editor): `import helpers` beside
    `helpers.py` works as `python step.py` has it, `kernels.v2.py` is no module `kernels.v2`, the kernel of
    an `if` branch not taken is found, and a relative import still works."""
    folder = tmp_path / "my_sims"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "helpers.py").write_text("import warp as wp\n\n\n@wp.func\ndef twice(x: float):\n    return 2.0 * x\n")
    kernel = "@wp.kernel\ndef {name}(a: wp.array(dtype=float)):\n    a[wp.tid()] = {body}\n"
    (folder / "step.py").write_text(
        "import sys\n\nimport warp as wp\nimport helpers\n\n\n"
        + kernel.format(name="doubled", body="helpers.twice(1.0)")
        + "\n\nif sys.platform == 'no such platform':\n\n    "
        + kernel.format(name="elsewhere", body="0.0").replace("\n", "\n    ").rstrip()
        + "\n"
    )
    (folder / "kernels.v2.py").write_text("import warp as wp\n\n\n" + kernel.format(name="v2", body="3.0"))
    (folder / "relative.py").write_text(
        "import warp as wp\n\nfrom .helpers import twice\n\n\n" + kernel.format(name="rel", body="twice(4.0)")
    )
    result = harvest([str(folder)], workers=1)
    assert result.reasons == []
    assert sorted((r["file"], r["qualname"]) for r in result.records) == [
        ("kernels.v2.py", "v2"),
        ("relative.py", "rel"),
        ("step.py", "doubled"),
        ("step.py", "elsewhere"),
    ]


def test_a_module_of_a_package_loaded_by_path_comes_after_its_package(tmp_path):
    """`pkg/Forces.py` sorts before `pkg/__init__.py`, whose `from .Forces import twice` would meet the
    module half made if its own relative import ran the package's `__init__` in the middle of its load."""
    pkg = tmp_path / "scripts" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .Forces import twice\n")
    (pkg / "base.py").write_text("ONE = 1.0\n")
    (pkg / "Forces.py").write_text(
        "import warp as wp\n\nfrom .base import ONE\n\n\n@wp.func\ndef twice(x: float):\n    return 2.0 * x * ONE\n"
        "\n\n@wp.kernel\ndef clear(a: wp.array(dtype=float)):\n    a[wp.tid()] = twice(0.0)\n"
    )
    result = harvest([str(tmp_path / "scripts")], workers=1)
    assert result.reasons == []
    assert [(r["file"], r["qualname"]) for r in result.records] == [("pkg/Forces.py", "clear")]


@pytest.mark.parametrize(
    ("before", "params", "problem"),
    [
        ("self.grid = make_grid(64)", ("n",), None),  # sets an attribute the kernel does not need: not run
        ("self.n, self.m = 4, 3", (), None),  # sets the one it reads
        ("self.sizes.append(4)", ("n",), None),
        ("self.n += 1", ("n",), None),
        ("self.setup()", None, "self is changed in place: self.setup()"),  # any attribute may change
        ("super().__init__()", None, "self is changed in place: super().__init__()"),
        ("self.n.real = 1", None, "self.n is changed in place: self.n.real = 1"),
        ("h = self.m", None, "self.m is not set in __init__ before the kernel"),
        ("h = helper(self)", None, "reads self itself, not only its attributes"),
    ],
)
def test_a_methods_kernel_is_planned_from_self_attributes(before, params, problem):
    """What a method's kernel needs of `self` is the attributes the statements before it set; what may
    change them in place stops the kernel."""
    text = (
        "import warp as wp\n\n\nclass Example:\n    def __init__(self, n=8):\n        self.n = n\n"
        f"        {before}\n        h = self.n * 2\n        h = h + 1 if h else h\n\n"
        "        @wp.kernel\n        def k(a: wp.array(dtype=float)):\n            a[wp.tid()] = float(h)\n"
    )
    if before.startswith("h = "):
        text = text.replace("        h = self.n * 2\n", "")
    (plan,) = factories.plans(ast.parse(text), text, "example.py", lambda d: True)
    assert plan.problem == problem
    if problem is None:
        assert plan.params == params and plan.instance == "self"
        assert "h = self.n * 2" in [ast.unparse(s) for s in plan.statements]


@pytest.mark.parametrize(
    ("init", "problem"),
    [
        ("self.n = n\n        self.k = self._make()", None),
        ("self.k = self._make()\n        self.n = n", "self.n is not set in __init__ before it calls _make"),
        ("self.n = n\n        self.reset()\n        self.k = self._make()", "self is changed in place: self.reset()"),
        (
            "for i in range(2):\n            self.n = i\n        self.k = self._make()",
            "self.n is bound inside a block of __init__",
        ),
        (
            "self.n = n\n        for i in range(2):\n            self._make()",
            "self.n is not set in _make before the kernel",
        ),
    ],
)
def test_a_kernel_of_a_method_init_calls_is_planned_through_init(init, problem):
    """`self.kernel = self._make()` in `__init__`: what `_make` reads of `self`, `__init__` set before the call."""
    text = (
        f"import warp as wp\n\n\nclass Example:\n    def __init__(self, n=8):\n        {init}\n\n"
        "    def _make(self):\n        h = self.n * 2\n\n"
        "        @wp.kernel\n        def k(a: wp.array(dtype=float)):\n            a[wp.tid()] = float(h)\n\n"
        "        return k\n"
    )
    (plan,) = factories.plans(ast.parse(text), text, "example.py", lambda d: True)
    assert plan.problem == problem
    if problem is None:
        assert (plan.factory.name, plan.params, plan.defined_in) == ("__init__", ("n",), "Example._make")
        assert [ast.unparse(s) for s in plan.statements] == ["self.n = n", "h = self.n * 2"]


def test_the_factory_guard_evaluates_only_what_cannot_act(tmp_path):
    """What the harvest evaluates of a script to call a factory: pure built-ins and Warp's types, no I/O, no
    method of the script's own classes, no sequence that would fill the worker's memory."""
    from warp_cuda_ir.harvest import worker

    class Box:
        def __len__(self) -> int:
            raise AssertionError("a method of the script ran")

    namespace = {"os": __import__("os"), "box": Box(), "wp": __import__("warp"), "N": 3}
    resolver = call_values.Resolver(ast.parse("pass"), str(tmp_path / "s.py"), namespace, worker._allowed_call)

    def value(text: str):
        expr = ast.parse(text, mode="eval").body
        return resolver.values(expr, expr, 0)

    assert value("list(range(N))") == [[0, 1, 2]]
    assert value("wp.types.vector(length=N, dtype=wp.float32)")[0]._length_ == 3
    for text, why in (
        (f"os.remove({str(tmp_path / 'x')!r})", "calls remove"),
        ("len(box)", "box is a Box object"),
        ("list(range(10**9))", "1000000000 items"),
        ("wp.zeros(N)", "calls zeros"),
        ("wp.array([1.0], dtype=float)", "calls array"),
    ):
        with pytest.raises(call_values.Unresolved, match=why):
            value(text)


@pytest.mark.slow
def test_a_folder_of_scripts_harvests_its_factory_kernels():
    result = harvest([str(DATA / "factories")], workers=1)
    made = {(r["qualname"], r["factory_call"]) for r in result.records if r["factory_call"]}
    assert len(made) == 8 and len(result.records) == 11  # 8 made by the harvest, 3 by the scripts' load
    (scaled,) = [r for r in result.records if r["factory_call"] == "make_scaled(n=8, scale=2.0) (the call at line 54)"]
    # Its captured values and the type it made are the self-contained text's constants.
    for piece in ("half = 1.0", "scale = 2.0", "vec_t = wp.types.vector(length=8, dtype=wp.float32)"):
        assert piece in scaled["source"], piece
    assert [(r.category, r.kernel) for r in result.reasons] == [
        (reasons.FACTORY_NOT_MADE, "make_unknown.<locals>.unknown")
    ]
    rows = real.real_rows(result.records).rows
    calls = sorted(r["provenance"]["factory_call"] for r in rows if r["provenance"]["factory_call"])
    assert calls == sorted(call for _, call in made)
    # The same folder gives the same records, in the same order, however the files meet the workers.
    again = harvest([str(DATA / "factories")], workers=2)
    assert [(r["ident"], r["source"]) for r in again.records] == [(r["ident"], r["source"]) for r in result.records]


@pytest.mark.slow
def test_a_script_past_its_time_limit_keeps_its_kernels(tmp_path):
    """A simulation loop at top level: the kernels before and after it are harvested, the file has its
    reason; a top-level `argparse` gives its defaults, as `python sim-loop.py` would."""
    (tmp_path / "sim-loop.py").write_text(
        "import argparse\nimport time\n\nimport warp as wp\n\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--n', type=int, default=4)\n"
        "N = parser.parse_args().n\n\n\n"
        "@wp.kernel\ndef before(a: wp.array[float]):\n    a[wp.tid()] = float(N)\n\n\n"
        "while True:\n    time.sleep(0.1)\n\n\n"
        "@wp.kernel\ndef after(a: wp.array[float]):\n    a[wp.tid()] = 2.0\n"
    )
    result = harvest([str(tmp_path)], workers=1, import_timeout=4)
    assert [(r.category, r.file) for r in result.reasons] == [(reasons.IMPORT_TIMEOUT, "sim-loop.py")]
    got = {r["qualname"]: r for r in result.records}
    assert set(got) == {"before", "after"} and "N = 4" in got["before"]["source"]


@pytest.mark.slow
def test_a_module_past_its_time_limit_keeps_its_kernels_and_leaves_warps_cache(tmp_path, monkeypatch):
    """`wci_slow.bench`, imported by name, makes kernels, clears Warp's kernel cache and runs on past the
    limit, as Warp's launch benchmark does: its kernels are harvested, the file has its reason, and the module
    folders of the kernel cache the harvest's workers share stay (another worker may be compiling there)."""
    import warp as wp

    folder = DATA / "slow_import"
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv("PYTHONPATH", str(folder))
    building = tmp_path / "kernels" / wp.config.version / "wp_another_worker_0123abc_p1_t1"
    building.mkdir(parents=True)
    monkeypatch.setenv("WARP_CACHE_PATH", str(tmp_path / "kernels"))
    result = harvest(["wci_slow"], workers=1, import_timeout=6)
    assert [(r.category, r.file) for r in result.reasons] == [(reasons.IMPORT_TIMEOUT, "wci_slow/bench.py")]
    assert sorted(r["qualname"] for r in result.records) == ["advance", "tick"]  # `advance` reads a struct
    assert building.is_dir()


def test_a_scripts_warning_filters_and_numpy_error_modes_stay_its_own(tmp_path):
    """`warnings.simplefilter("error")` and `np.seterr(all="raise")` at the top of one script: the next script
    the same worker loads warns and divides by zero at import as `python b-relaxed.py` lets it."""
    head = "import warnings\n\nimport numpy as np\nimport warp as wp\n\n"
    kernel = "\n\n@wp.kernel\ndef {}(a: wp.array(dtype=float)):\n    a[wp.tid()] = 1.0\n"
    (tmp_path / "a-strict.py").write_text(
        head + 'warnings.simplefilter("error")\nnp.seterr(all="raise")\n' + kernel.format("strict")
    )
    (tmp_path / "b-relaxed.py").write_text(
        head
        + 'warnings.warn("an old option", DeprecationWarning)\nINF = float(np.float32(1) / np.float32(0))\n'
        + kernel.format("relaxed")
    )
    result = harvest([str(tmp_path)], workers=1, import_timeout=120)
    assert sorted(r["qualname"] for r in result.records) == ["relaxed", "strict"]
    assert result.reasons == []


def test_a_file_that_hangs_is_killed_and_blamed(tmp_path):
    (tmp_path / "hangs.py").write_text((DATA / "hangs" / "hangs.py").read_text())
    (tmp_path / "ok.py").write_text((KERNELS / "wci_forms" / "main_guard.py").read_text())
    result = harvest([str(tmp_path)], workers=1, import_timeout=8)
    assert [(r.category, r.file) for r in result.reasons] == [(reasons.IMPORT_TIMEOUT, "hangs.py")]
    assert [r["qualname"] for r in result.records] == ["guarded"]


def test_targets_that_name_nothing_are_one_line_each(tmp_path):
    with pytest.raises(TargetError, match="no installed package or folder"):
        discover.resolve("surely_not_an_installed_package_xyz", 0)
    with pytest.raises(TargetError, match=r"holds no \.py files"):
        discover.resolve(str(DATA / "no_python"), 0)
    with pytest.raises(TargetError, match="no such folder"):
        discover.resolve(str(tmp_path / "missing"), 0)
    result = harvest(["surely_not_an_installed_package_xyz", str(DATA / "no_kernels")], workers=1)
    assert result.records == [] and result.reasons == []
    assert len(result.target_errors) == 2
    assert "no Warp kernels" in result.target_errors[1]
    assert all("\n" not in e for e in result.target_errors)


def test_installed_package_provenance_and_records():
    result = harvest(["warp._src.optim"], workers=2)
    summary = result.summary()["packages"]["warp-lang"]
    assert summary["license"] == "Apache-2.0" and summary["version"].startswith("1.19")
    assert result.records and summary["records"] == summary["generated_by_warp"] - summary["check_failed"]
    assert summary["check_failed"] == 0
    assert all(r["file"].startswith("warp/_src/optim/") for r in result.records)
    target = result.targets[0]
    assert any(name.startswith("LICENSE") for name in target.notices)


def test_near_duplicates_share_a_split_and_files_split_by_hash():
    base = (KERNELS / "wci_forms" / "uses.py").read_text()
    sources = [
        base,
        base.replace("dt: float", "dt: float, unused: int"),
        (KERNELS / "wci_forms" / "generic.py").read_text(),
    ]
    found = near_duplicates(sources, threshold=0.7)
    assert found.pairs == [(0, 1)] and found.with_partner == 2
    keys = [("p", f"file{i}.py") for i in range(200)]
    alone = assign_splits(keys, [])
    assert alone == [split_for_file("p", f"file{i}.py") for i in range(200)]
    assert {"train", "validation", "test"} <= set(alone)
    i, j = next((a, b) for a in range(200) for b in range(200) if alone[a] != alone[b])
    joined = assign_splits(keys, [(i, j)])
    assert joined[i] == joined[j]
    assert [s for k, s in enumerate(joined) if k not in (i, j)] == [s for k, s in enumerate(alone) if k not in (i, j)]


def test_cached_harvest_is_written_once_and_read_back(tmp_path):
    first = cached_harvest([str(KERNELS), "surely_not_an_installed_package_xyz"], tmp_path, workers=2)
    files = sorted(p for p in (tmp_path / "harvest").rglob("*") if p.is_file())
    assert len(files) == 1 and len(first["records"]) == 14
    assert first["target_errors"] == [
        "--real surely_not_an_installed_package_xyz: no installed package or folder of that name"
    ]
    stamp = files[0].stat().st_mtime_ns
    again = cached_harvest([str(KERNELS)], tmp_path, workers=2)
    assert files[0].stat().st_mtime_ns == stamp  # not harvested again
    assert again["records"] == first["records"]


def test_a_folders_cached_harvest_is_redone_when_a_data_file_its_script_reads_changes(tmp_path):
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "params.json").write_text('{"k": 2.5}')
    (folder / "load.py").write_text(
        "import json\n\nimport warp as wp\n\nK = wp.constant(json.load(open('params.json'))['k'])\n\n\n"
        "@wp.kernel\ndef scale(a: wp.array(dtype=float)):\n    a[wp.tid()] *= K\n"
    )
    first = cached_harvest([str(folder)], tmp_path / "cache", workers=1)
    (folder / "params.json").write_text('{"k": 4.0}')
    second = cached_harvest([str(folder)], tmp_path / "cache", workers=1)
    assert "K = 2.5" in first["records"][0]["source"] and "K = 4.0" in second["records"][0]["source"]


def test_notices_are_written_per_package(tmp_path):
    written = write_notices([{"package": "warp-lang", "notices": {"LICENSE.md": "Apache", "../evil": "x"}}], tmp_path)
    assert written == ["LICENSES/warp-lang/LICENSE.md"]
    assert (tmp_path / "LICENSES" / "warp-lang" / "LICENSE.md").read_text() == "Apache"


def test_named_modules_debug_lines_builtin_annotations_and_factory_snippets_are_harvested(tmp_path):
    """Four ways Warp's own tests write kernels, each once missed as "self-contained code differs" or "refers
    to a name not found": a module named in the decorator whose owner turned its backward off
    (`wp.get_module(name).options[...]`); a module in debug mode, whose code carries `#line` directives naming
    the file; Python's own `float` in a factory kernel's annotation and body (Warp writes `float` there, not
    float32); `@wp.func_native(snippet, adj_snippet)` and `@wp.kernel(grid_stride=flag)` with a factory's
    locals, which the function and the kernel keep."""
    records = _harvest_script(
        tmp_path,
        "1-warp-tests.py",
        "import warp as wp\n\n"
        'wp.get_module("fwd_only").options["enable_backward"] = False\n\n\n'
        '@wp.kernel(module="fwd_only")\ndef doubled(a: wp.array(dtype=float)):\n    a[wp.tid()] *= 2.0\n\n\n'
        "def make(flag):\n"
        '    snippet = "out[tid] = x[tid] + 1.0f;"\n'
        '    adj_snippet = "adj_x[tid] += adj_out[tid];"\n\n'
        "    @wp.func_native(snippet, adj_snippet)\n"
        "    def plus_one(x: wp.array(dtype=float), out: wp.array(dtype=float), tid: int): ...\n\n"
        '    @wp.kernel(module="unique", grid_stride=flag)\n'
        "    def ones(out: wp.array2d[float]):\n"
        "        t = wp.tile_ones(shape=(2, 2), dtype=float)\n        wp.tile_store(out, t)\n\n"
        "    @wp.kernel\n"
        "    def call(x: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
        "        plus_one(x, out, wp.tid())\n\n"
        "    return ones, call\n\n\n"
        "kernels = make(False)\n",
    )
    (tmp_path / "2-debug.py").write_text(
        'import warp as wp\n\nwp.set_module_options({"mode": "debug"})\n\n\n'
        "@wp.kernel\ndef checked(a: wp.array(dtype=int)):\n    a[wp.tid()] = 1\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert result.reasons == []
    got = {r["qualname"].rpartition(".")[2]: r for r in result.records}
    assert sorted(got) == ["call", "checked", "doubled", "ones"]
    assert "wp.set_module_options({'enable_backward': False}, module='fwd_only')" in got["doubled"]["source"]
    assert got["doubled"]["texts"]["backward_origin"] == "enabled_here:module"
    assert "float = " not in got["ones"]["source"] and "tile_ones<float, 2, 2>" in got["ones"]["texts"]["cuda_forward"]
    assert "flag = False" in got["ones"]["source"]
    assert "adj_snippet = 'adj_x[tid] += adj_out[tid];'" in got["call"]["source"]
    assert "#line" in got["checked"]["texts"]["cpu_forward"]
    assert records  # the first file alone harvested too


def test_a_file_whose_worker_died_importing_it_is_tried_once_more(tmp_path):
    """A worker can die for what an earlier script left in its process; the file is harvested again in a fresh
    worker. Here the first import of the script kills its process (exit code 1), the second works."""
    marker = tmp_path / "died-once"
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "flaky-import.py").write_text(
        f"import os\nfrom pathlib import Path\n\nimport warp as wp\n\nmarker = Path({str(marker)!r})\n"
        "if not marker.exists():\n    marker.write_text('')\n    os._exit(1)\n\n\n"
        "@wp.kernel\ndef survive(a: wp.array(dtype=float)):\n    a[wp.tid()] = 1.0\n"
    )
    result = harvest([str(folder)], workers=1)
    assert marker.exists() and result.reasons == []
    assert [r["qualname"] for r in result.records] == ["survive"]


def test_options_set_on_a_unique_module_after_its_kernel_are_kept(tmp_path):
    """newton's factories turn a unique module's backward off after the kernel is made
    (`wp.set_module_options({...}, module=kernel.module)`): the self-contained text does the same after the
    definition, and leaves alone what the decorator's own `module_options=` sets."""
    records = _harvest_script(
        tmp_path,
        "unique-options.py",
        "import warp as wp\n\n\ndef make():\n    @wp.kernel(module='unique')\n"
        "    def scaled(a: wp.array(dtype=float)):\n        a[wp.tid()] *= 3.0\n\n"
        "    wp.set_module_options({'enable_backward': False}, module=scaled.module)\n    return scaled\n\n\n"
        "@wp.kernel(module='unique', module_options={'enable_backward': False})\n"
        "def halved(a: wp.array(dtype=float)):\n    a[wp.tid()] *= 0.5\n\n\nKERNEL = make()\n",
    )
    got = {r["qualname"].rpartition(".")[2]: r for r in records}
    assert (
        got["scaled"]["source"]
        .rstrip()
        .endswith("wp.set_module_options({'enable_backward': False}, module=scaled.module)")
    )
    assert "set_module_options" not in got["halved"]["source"]
    assert {r["texts"]["backward_origin"] for r in records} == {"enabled_here:module"}


def test_a_one_line_kernel_its_script_built_is_checked_against_that_build(tmp_path):
    """`def zero(a): a[wp.tid()] = 0.0` on one line, launched by its script with Warp's kernel cache off (as a
    first run builds it): Warp's rebuild of the module for the check would lose the source-line comment the
    first build wrote (Warp remembers the last line across builds), and the check would fail."""
    records = _harvest_script(
        tmp_path,
        "one-line.py",
        "import warp as wp\n\nwp.config.cache_kernels = False\n\n\n"
        "@wp.kernel\ndef zero(a: wp.array(dtype=float)): a[wp.tid()] = 0.0  # noqa: E704\n\n\n"
        "wp.launch(zero, dim=2, inputs=[wp.ones(2, dtype=float, device='cpu')], device='cpu')\n",
    )
    (record,) = records
    assert "// def zero(a: wp.array(dtype=float)): a[wp.tid()] = 0.0" in record["texts"]["cpu_forward"]


def test_helpers_of_an_imported_module_are_named_alike_whatever_the_worker_imported_first(tmp_path):
    """A script calling `@wp.func`s of an installed module, which the self-contained text imports rather than
    copies (a Warp test module here), directly and as a `wp.Function` argument, beside a function of its own
    with one of their names. Warp numbers a function's native name when its module is first imported in the
    process: in a worker that had loaded a file defining the same names first, the imported ones were
    `same_func_1` and `function_external_module_double_it_1` (and the callable specialisation's hash,
    derived from that name, another), in a fresh one `_0`, which the text's own `same_func` also got. The
    records are the same either way, every function has a name of its own, and the text's own keeps `_0`."""
    uses = (
        "import warp as wp\nimport warp.tests.aux_test_function_double as dbl\n"
        "from warp.tests import aux_test_name_clash1 as clash\n\n\n"
        "@wp.func\ndef same_func():\n    return 5\n\n\n"
        "@wp.func\ndef apply(g: wp.Function, x: float):\n    return g(x)\n\n\n"
        "@wp.kernel\ndef calls(out: wp.array(dtype=int)):\n"
        "    out[0] = clash.same_func() + same_func() + clash.different_func()\n\n\n"
        "@wp.kernel\ndef passes(out: wp.array(dtype=float)):\n"
        "    out[0] = apply(dbl.function_external_module_double_it, 3.0)\n"
    )
    first = (
        "import warp as wp\n\n\n@wp.func\ndef same_func():\n    return 1\n\n\n"
        "@wp.func\ndef different_func():\n    return 2\n\n\n"
        "@wp.func\ndef function_external_module_double_it(x: float):\n    return x\n"
    )
    (tmp_path / "alone").mkdir()
    (tmp_path / "after").mkdir()
    (tmp_path / "after" / "a-first.py").write_text(first)  # the one worker loads it first (file order)
    alone = {r["qualname"]: r for r in _harvest_script(tmp_path / "alone", "b-uses.py", uses)}
    after = {r["qualname"]: r for r in _harvest_script(tmp_path / "after", "b-uses.py", uses)}
    assert sorted(alone) == sorted(after) == ["calls", "passes"]
    for name in alone:
        assert alone[name]["texts"] == after[name]["texts"], name
        helpers = warp_session.declared_names(alone[name]["texts"]["cuda_helpers"])
        assert len(helpers) == len(set(helpers)), helpers
    calls = alone["calls"]["texts"]
    assert "same_func_0();" in calls["cuda_forward"] and "same_func_1();" in calls["cuda_forward"]
    assert " different_func_0();" in calls["cuda_forward"]
    assert "function_external_module_double_it_0(" in alone["passes"]["texts"]["cuda_helpers"]


def test_a_wp_func_made_by_a_call_on_a_plain_def_is_written_so(tmp_path):
    """`relu = wp.func(_relu)` on a plain def, at the top and as a class attribute a kernel calls as
    `Ops.leaky(x)`: the self-contained text makes the function the same way, not a plain Python def."""
    records = _harvest_script(
        tmp_path,
        "func-calls.py",
        "import warp as wp\n\n\ndef _relu(x: float):\n    return wp.max(x, 0.0)\n\n\n"
        "def _leaky(x: float):\n    return wp.where(x > 0.0, x, 0.01 * x)\n\n\nrelu = wp.func(_relu)\n\n\n"
        "class Ops:\n    leaky = wp.func(_leaky)\n\n\n"
        "@wp.kernel\ndef at_top(a: wp.array(dtype=float)):\n    a[wp.tid()] = relu(a[wp.tid()])\n\n\n"
        "@wp.kernel\ndef in_class(a: wp.array(dtype=float)):\n    a[wp.tid()] = Ops.leaky(a[wp.tid()])\n",
    )
    got = {r["qualname"]: r["source"] for r in records}
    assert sorted(got) == ["at_top", "in_class"]
    assert "_relu = wp.func(_relu)" in got["at_top"] and "_leaky = wp.func(_leaky)" in got["in_class"]


def test_a_named_tuple_read_by_field_is_written_as_a_class(tmp_path):
    """A factory's `typing.NamedTuple` closure value read as `wp.static(p.stiffness)`: a tuple literal
    would lose the field names, so the fields used are written as a class (one record per value)."""
    records = _harvest_script(
        tmp_path,
        "named-tuple.py",
        "from typing import NamedTuple\n\nimport warp as wp\n\n\nclass Spring(NamedTuple):\n"
        "    stiffness: float\n    damping: float\n\n\ndef make(p: Spring):\n    @wp.kernel\n"
        "    def force(x: wp.array(dtype=float), f: wp.array(dtype=float)):\n"
        "        f[wp.tid()] = -wp.static(p.stiffness) * x[wp.tid()]\n\n    return force\n\n\n"
        "SOFT = make(Spring(10.0, 0.1))\nSTIFF = make(Spring(stiffness=1000.0, damping=5.0))\n",
    )
    assert len(records) == 2
    assert sorted("stiffness = 1000.0" in r["source"] for r in records) == [False, True]
    assert all("class p:\n    stiffness = stiffness" in r["source"] for r in records)


def test_kernel_decorators_written_as_expressions_are_harvested(tmp_path):
    """`@(wp.kernel(enable_backward=False) if FAST else wp.kernel)` and `@DECORATORS["kernel"]`: the
    expression is read without calling anything and left out of the text, which makes the kernel after its
    definition with the options Warp kept."""
    records = _harvest_script(
        tmp_path,
        "decorator-exprs.py",
        "import warp as wp\n\nFAST = True\nDECORATORS = {'kernel': wp.kernel, 'func': wp.func}\n\n\n"
        "@(wp.kernel(enable_backward=False) if FAST else wp.kernel)\n"
        "def halve(a: wp.array(dtype=float)):\n    a[wp.tid()] *= 0.5\n\n\n"
        "@DECORATORS['kernel']\ndef grow(a: wp.array(dtype=float)):\n    a[wp.tid()] = wp.exp(a[wp.tid()])\n",
    )
    got = {r["qualname"]: r for r in records}
    assert sorted(got) == ["grow", "halve"]
    assert "halve = wp.kernel(halve, enable_backward=False)" in got["halve"]["source"]
    assert "DECORATORS" not in got["grow"]["source"] and "grow = wp.kernel(grow)" in got["grow"]["source"]
    # `halve`'s backward was off as upstream: the row's backward is the one enabled for the check.
    assert got["grow"]["texts"]["backward_origin"] == extraction.AS_WRITTEN
    assert got["halve"]["texts"]["backward_origin"] != extraction.AS_WRITTEN


def test_a_kernel_named_top_reads_its_arguments_as_arguments(tmp_path):
    """Python's `symtable` takes a function named `top` for the module (its scope test is by name), so the
    arguments of `def top(a)` looked like globals the self-contained text had to find."""
    records = _harvest_script(
        tmp_path,
        "stack.py",
        "import warp as wp\n\n\n@wp.kernel\ndef top(stack: wp.array(dtype=int), out: wp.array(dtype=int)):\n"
        "    out[0] = stack[stack.shape[0] - 1]\n",
    )
    assert [r["qualname"] for r in records] == ["top"]


def test_a_table_of_warp_builtins_is_written_by_their_public_names(tmp_path):
    """`OPS = [wp.sin, wp.cos, square]` picked from with `wp.static(OPS[j])`: a Warp built-in in a table is
    written as `wp.sin` (it has no Python source to copy), next to a user `wp.func` copied by its name."""
    records = _harvest_script(
        tmp_path,
        "op-table.py",
        "import warp as wp\n\n\n@wp.func\ndef square(v: float):\n    return v * v\n\n\n"
        "OPS = [wp.sin, wp.cos, square]\nBY_NAME = {'abs': wp.abs}\n\n\n"
        "@wp.kernel\ndef apply_ops(x: wp.array(dtype=float), y: wp.array(dtype=float, ndim=2)):\n"
        "    i = wp.tid()\n    for j in range(wp.static(len(OPS))):\n"
        "        y[j, i] = wp.static(OPS[j])(x[i]) + wp.static(BY_NAME['abs'])(x[i])\n",
    )
    assert [r["qualname"] for r in records] == ["apply_ops"]
    source = records[0]["source"]
    assert "OPS = [wp.sin, wp.cos, square]" in source and "BY_NAME = {'abs': wp.abs}" in source


def test_a_numpy_array_read_through_wp_static_is_written_as_an_array(tmp_path):
    """Module-level numpy arrays read with `wp.static(float(WEIGHTS[k]))`: the name check compared the array
    with `int`/`float`/`bool` by `in` (elementwise, whose truth value raises), and no literal wrote an array.
    Each array is written with its values and dtype, so `wp.static` reads the same numbers."""
    records = _harvest_script(
        tmp_path,
        "fir-weights.py",
        "import numpy as np\nimport warp as wp\n\nWEIGHTS = np.array([0.1, 0.7, 0.2], dtype=np.float32)\n"
        "ROT = np.eye(2)\n\n\n"
        "@wp.kernel\ndef smooth3(src: wp.array(dtype=float), dst: wp.array(dtype=float)):\n"
        "    i = wp.tid()\n    j = wp.min(i + 1, src.shape[0] - 1)\n"
        "    dst[i] = wp.static(float(WEIGHTS[0])) * src[i] + wp.static(float(WEIGHTS[1] + ROT[1, 1])) * src[j]\n",
    )
    assert [r["qualname"] for r in records] == ["smooth3"]
    source = records[0]["source"]
    assert "WEIGHTS = np.array([0.10000000149011612, 0.699999988079071, 0.20000000298023224], dtype=np.float32)" in (
        source
    )
    assert "ROT = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float64)" in source


def test_a_parser_given_mains_argv_reads_its_defaults(tmp_path):
    """`def main(argv=None): args = parser.parse_args(argv)`, called as `main()`: the parser reads the
    script's own command line, empty as the harvest loads it, so a kernel made in a loop over an option's
    values gets its default list (the call was evaluated, and `ArgumentParser` refused as one that may act)."""
    records = _harvest_script(
        tmp_path,
        "sweep.py",
        "import argparse\nimport sys\n\nimport warp as wp\n\n\ndef main(argv=None):\n"
        "    p = argparse.ArgumentParser()\n"
        "    p.add_argument('--alphas', type=float, nargs='+', default=[0.1, 0.4])\n"
        "    p.add_argument('--steps', type=int, default=3)\n"
        "    args = p.parse_args(argv)\n    for alpha in args.alphas:\n\n        @wp.kernel\n"
        "        def relax(u: wp.array(dtype=float)):\n            i = wp.tid()\n"
        "            for _ in range(wp.static(args.steps)):\n                u[i] = (1.0 - alpha) * u[i]\n\n"
        "        print(relax.key)\n\n\n"
        "def cli():\n    p = argparse.ArgumentParser()\n    p.add_argument('--gain', type=float, default=2.0)\n"
        "    args = p.parse_known_args(sys.argv[1:])[0]\n\n    @wp.kernel\n"
        "    def amplify(u: wp.array(dtype=float)):\n        u[wp.tid()] *= wp.static(args.gain)\n\n"
        "    return amplify\n\n\n"
        "if __name__ == '__main__':\n    main()\n    cli()\n",
    )
    got = sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records)
    assert got == [
        ("cli.<locals>.amplify", "gain = 2.0"),
        ("main.<locals>.relax", "alpha = 0.1\nsteps = 3"),
        ("main.<locals>.relax", "alpha = 0.4\nsteps = 3"),
    ]
    # `wp.static(args.steps)`: the defaults are written as a class of the options used, as a settings object's
    assert all("class args:\n" in r["source"] for r in records)


def test_parser_defaults_read_through_wp_static_are_written_as_settings(tmp_path):
    """`args = parser.parse_args()` in a factory and `wp.static(args.scale)` in its kernel: the harvest's stand-in
    for the parsed options (a class of this package, `warp_cuda_ir...`) was taken for one of Warp's by its
    module's name and refused as a literal; it is written as a class of the options used, as a Namespace is."""
    records = _harvest_script(
        tmp_path,
        "scaled.py",
        "import argparse\n\nimport warp as wp\n\n\ndef build():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--scale', type=float, default=1.5)\n    args = parser.parse_args()\n\n"
        "    @wp.kernel\n    def rescale(a: wp.array(dtype=float)):\n        a[wp.tid()] *= wp.static(args.scale)\n\n"
        "    return rescale\n\n\nif __name__ == '__main__':\n    build()\n",
    )
    assert [r["qualname"] for r in records] == ["build.<locals>.rescale"]
    assert "scale = 1.5\n\n\nclass args:\n    scale = scale" in records[0]["source"]


def test_kernels_of_pytest_fixtures_with_params_get_each_param(tmp_path):
    """pytest fixtures with `params=[...]`: a kernel made in the fixture from `request.param`, and a test's
    parameter naming a fixture that hands its params on (`return request.param`), get each value, as
    `@pytest.mark.parametrize` rows do (the fixture was a factory nobody calls, the parameter unknown)."""
    records = _harvest_script(
        tmp_path,
        "test_fixture_params.py",
        "import pytest\nimport warp as wp\n\n\n@pytest.fixture(params=[0.5, 2.0])\ndef scale_kernel(request):\n"
        "    factor = request.param\n\n    @wp.kernel\n    def scale(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] = a[wp.tid()] * factor\n\n    return scale\n\n\n"
        "@pytest.fixture(params=[wp.float32, wp.float64])\ndef dtype(request):\n"
        '    """The scalar types under test."""\n    return request.param\n\n\n'
        "def test_fill(dtype):\n    @wp.kernel\n    def fill(a: wp.array(dtype=dtype)):\n"
        "        a[wp.tid()] = dtype(1.0)\n\n    wp.launch(fill, dim=4, inputs=[wp.zeros(4, dtype=dtype)])\n",
    )
    got = sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records)
    assert got == [
        ("scale_kernel.<locals>.scale", "factor = 0.5"),
        ("scale_kernel.<locals>.scale", "factor = 2.0"),
        ("test_fill.<locals>.fill", "dtype = wp.float32"),
        ("test_fill.<locals>.fill", "dtype = wp.float64"),
    ]


def test_a_frozenset_read_through_wp_static_is_written_as_a_set(tmp_path):
    """`ACTIVE = frozenset({0, 2})` (and a set) read as `wp.static(c in ACTIVE)` in an unrolled loop: no literal
    wrote a set, so the kernel was refused; each is written with its elements, sorted."""
    records = _harvest_script(
        tmp_path,
        "channels.py",
        "import warp as wp\n\nACTIVE = frozenset({2, 0})\nSKIP = {'b', 'a'}\n\n\n"
        "@wp.kernel\ndef masked(src: wp.array(dtype=wp.vec4), dst: wp.array(dtype=wp.vec4)):\n"
        "    i = wp.tid()\n    out = dst[i]\n    for c in range(wp.static(4)):\n"
        "        if wp.static(c in ACTIVE and 'c' not in SKIP):\n            out[c] = src[i][c]\n    dst[i] = out\n",
    )
    assert [r["qualname"] for r in records] == ["masked"]
    assert "ACTIVE = frozenset({0, 2})\nSKIP = {'a', 'b'}" in records[0]["source"]


def test_a_struct_made_by_calling_wp_struct_stays_a_struct(tmp_path):
    """`Particle = wp.struct(ParticleDef)` on a plain class: the class was copied without the call, so the text
    held a plain class where Warp wants a struct (its codegen refused the array of it); the text now makes
    the struct the same way."""
    records = _harvest_script(
        tmp_path,
        "struct-call.py",
        "import warp as wp\n\n\nclass ParticleDef:\n    pos: wp.vec3\n    mass: float\n\n\n"
        "Particle = wp.struct(ParticleDef)\n\n\n"
        "@wp.kernel\ndef move(ps: wp.array(dtype=Particle), dt: float):\n"
        "    i = wp.tid()\n    p = ps[i]\n    p.pos = p.pos + wp.vec3(0.0, -dt, 0.0) * p.mass\n    ps[i] = p\n",
    )
    assert [r["qualname"] for r in records] == ["move"]
    assert "ParticleDef = wp.struct(ParticleDef)\n\n\nParticle = ParticleDef" in records[0]["source"]


def test_settings_objects_with_slots_are_written_as_settings(tmp_path):
    """A settings object without `__dict__` (a dataclass with `slots=True`, as `attrs.frozen` makes) read with
    `wp.static(MAT.youngs)`: only objects with a `__dict__` were taken for settings, this one was refused as a
    literal. It is written as a class of the fields used, as a dataclass instance is."""
    records = _harvest_script(
        tmp_path,
        "slotted.py",
        "from dataclasses import dataclass\n\nimport warp as wp\n\n\n@dataclass(frozen=True, slots=True)\n"
        "class Material:\n    youngs: float = 1.0e4\n    poisson: float = 0.3\n\n\nMAT = Material(poisson=0.25)\n\n\n"
        "@wp.kernel\ndef stress(strain: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
        "    i = wp.tid()\n    out[i] = wp.static(MAT.youngs / (1.0 + MAT.poisson)) * strain[i]\n",
    )
    assert [r["qualname"] for r in records] == ["stress"]
    assert "class MAT:\n    poisson = poisson\n    youngs = youngs" in records[0]["source"]


def test_enum_members_in_globals_stay_members(tmp_path):
    """A global holding a member of a user enum was written as its value: `ACTIVE = 5` for two flags, where
    `wp.static(Forces.WIND in ACTIVE)` raised (`in` on an int), and `UP = 'y'`, where `wp.static(UP == Axis.Y)`
    turned False and the text made other code than upstream's. Both stay members of their enums."""
    records = _harvest_script(
        tmp_path,
        "flags.py",
        "import enum\n\nimport warp as wp\n\n\nclass Forces(enum.IntFlag):\n    GRAVITY = enum.auto()\n"
        "    DRAG = enum.auto()\n    WIND = enum.auto()\n\n\nclass Axis(enum.Enum):\n    X = 'x'\n    Y = 'y'\n\n\n"
        "ACTIVE = Forces.GRAVITY | Forces.WIND\nUP = Axis.Y\n\n\n"
        "@wp.kernel\ndef forces(v: wp.array(dtype=wp.vec3)):\n    i = wp.tid()\n    f = wp.vec3(0.0)\n"
        "    if wp.static(Forces.WIND in ACTIVE):\n        f += wp.vec3(1.0, 0.0, 0.0)\n"
        "    if wp.static(UP == Axis.Y):\n        f += wp.vec3(0.0, -9.8, 0.0)\n    v[i] = v[i] + f\n",
    )
    assert [r["qualname"] for r in records] == ["forces"]
    source = records[0]["source"]
    assert "\nACTIVE = Forces.GRAVITY | Forces.WIND\n" in source and "\nUP = Axis.Y\n" in source
    assert "class Axis(enum.Enum):\n    Y = 'y'" in source


def test_pytest_param_rows_give_their_values(tmp_path):
    """`@pytest.mark.parametrize("name", [pytest.param("float32", id="f32"), ...])`, and the two-name form
    with `param(8, 0.5, marks=...)`: calling `pytest.param` to read the rows was refused, so the kernel made in
    the test from them was not; each row now gives the values pytest hands the test."""
    records = _harvest_script(
        tmp_path,
        "test_params.py",
        "import pytest\nfrom pytest import param\nimport warp as wp\n\n\n@pytest.mark.parametrize(\n"
        "    'dtype_name', [pytest.param('float32', id='f32'), pytest.param('float64', marks=pytest.mark.slow)]\n"
        ")\ndef test_cast(dtype_name):\n    dtype = getattr(wp, dtype_name)\n\n    @wp.kernel\n"
        "    def cast(src: wp.array(dtype=float), dst: wp.array(dtype=dtype)):\n        i = wp.tid()\n"
        "        dst[i] = dtype(src[i])\n\n\n"
        "@pytest.mark.parametrize('n, gain', [param(8, 0.5, id='small'), (16, 2.0)])\ndef test_gain(n, gain):\n"
        "    @wp.kernel\n    def amplify(a: wp.array(dtype=float)):\n        i = wp.tid()\n"
        "        if i < n:\n            a[i] = a[i] * gain\n",
    )
    got = sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records)
    assert got == [
        ("test_cast.<locals>.cast", "dtype = wp.float32"),
        ("test_cast.<locals>.cast", "dtype = wp.float64"),
        ("test_gain.<locals>.amplify", "gain = 0.5\nn = 8"),
        ("test_gain.<locals>.amplify", "gain = 2.0\nn = 16"),
    ]


def test_factories_reached_through_a_map_get_each_item(tmp_path):
    """A factory called by a function handed to `executor.map(run_case, CASES)` under `__main__`, and one handed
    to `map(make_shift, [...])` in `main()`: neither is called by name, so their parameters had no caller. A
    mapped function's parameter takes each item of its iterable, as the map gives them."""
    records = _harvest_script(
        tmp_path,
        "pool-cases.py",
        "from concurrent.futures import ThreadPoolExecutor\n\nimport warp as wp\n\n"
        "CASES = [{'name': 'soft', 'k': 10.0}, {'name': 'stiff', 'k': 50.0}]\n\n\n"
        "def make_case(k):\n    @wp.kernel\n    def case(x: wp.array(dtype=float)):\n        x[wp.tid()] *= k\n\n"
        "    return case\n\n\ndef run_case(cfg):\n    return cfg['name'], make_case(cfg['k'])\n\n\n"
        "def make_shift(s):\n    @wp.kernel\n    def shift(x: wp.array(dtype=float)):\n        x[wp.tid()] += s\n\n"
        "    return shift\n\n\ndef main():\n    return list(map(make_shift, [1.0, 2.0]))\n\n\n"
        "if __name__ == '__main__':\n    with ThreadPoolExecutor(max_workers=2) as ex:\n"
        "        made = dict(ex.map(run_case, CASES, timeout=60))\n    main()\n",
    )
    got = sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records)
    assert got == [
        ("make_case.<locals>.case", "k = 10.0"),
        ("make_case.<locals>.case", "k = 50.0"),
        ("make_shift.<locals>.shift", "s = 1.0"),
        ("make_shift.<locals>.shift", "s = 2.0"),
    ]


def test_ranges_bytes_and_exact_numbers_read_through_wp_static_are_written(tmp_path):
    """Globals a kernel reads only through `wp.static(...)`: a `range` of offsets, a `bytes` table, a
    `types.MappingProxyType`, `Fraction` weights, a `Decimal` rate and a `complex` root. None had a literal, so
    each kernel was refused; each is now written as the expression that makes the same value."""
    records = _harvest_script(
        tmp_path,
        "exact-tables.py",
        "import cmath\nimport types\nfrom decimal import Decimal\nfrom fractions import Fraction\n\n"
        "import warp as wp\n\nOFFSETS = range(-1, 2)\nLUT = bytes([0, 1, 4])\n"
        "BOUNDS = types.MappingProxyType({'lo': -2.0})\nSIMPSON = [Fraction(1, 6), Fraction(2, 3), Fraction(1, 6)]\n"
        "RATE = Decimal('0.125')\nROOT = cmath.exp(0.25j * cmath.pi)\n\n\n"
        "@wp.kernel\ndef tables(x: wp.array(dtype=float), y: wp.array(dtype=float)):\n    i = wp.tid()\n"
        "    acc = float(0.0)\n    for k in range(wp.static(len(OFFSETS))):\n"
        "        j = wp.clamp(i + wp.static(OFFSETS[k]), 0, x.shape[0] - 1)\n"
        "        acc += wp.static(float(SIMPSON[k])) * x[j] * wp.static(float(LUT[k]))\n"
        "    y[i] = wp.max(acc * wp.static(float(1 + RATE)), wp.static(BOUNDS['lo'])) + wp.static(ROOT.imag)\n",
    )
    assert [r["qualname"] for r in records] == ["tables"]
    source = records[0]["source"]
    for line in (
        "OFFSETS = range(-1, 2, 1)",
        "LUT = b'\\x00\\x01\\x04'",
        "BOUNDS = types.MappingProxyType({'lo': -2.0})",
        "SIMPSON = [Fraction(1, 6), Fraction(2, 3), Fraction(1, 6)]",
        "RATE = Decimal('0.125')",
        f"ROOT = complex({0.7071067811865476!r}, {0.7071067811865475!r})",
    ):
        assert line in source


def test_exact_numbers_of_another_library_are_written_as_fractions(tmp_path):
    """sympy's numbers (`series` coefficients: `Rational`, `Integer`, `One`) register as `numbers.Rational`:
    written as `Fraction`s (integers as ints), `float(...)` of them reads the same in `wp.static`."""
    pytest.importorskip("sympy")
    records = _harvest_script(
        tmp_path,
        "taylor.py",
        "import sympy as sp\nimport warp as wp\n\nt = sp.symbols('t')\n"
        "COEFFS = [sp.series(sp.exp(-t), t, 0, 3).removeO().coeff(t, k) for k in range(3)]\n\n\n"
        "@wp.kernel\ndef taylor(x: wp.array(dtype=float)):\n    i = wp.tid()\n    s = x[i]\n    acc = float(0.0)\n"
        "    for k in range(3):\n        acc = acc * s + wp.static(float(COEFFS[2 - k]))\n    x[i] = acc\n",
    )
    assert [r["qualname"] for r in records] == ["taylor"]
    assert "COEFFS = [1, -1, Fraction(1, 2)]" in records[0]["source"]


def test_factories_handed_to_starmap_threads_and_executors_get_their_arguments(tmp_path):
    """A factory given to `itertools.starmap(make_shift, JOBS)` (each item one call's arguments), a worker
    given to `threading.Thread(target=worker, args=(3.0, out))` and a factory given to `executor.submit(make_gain,
    0.5)`: none is called by name, so their parameters had no caller."""
    records = _harvest_script(
        tmp_path,
        "jobs-runner.py",
        "import itertools\nimport threading\nfrom concurrent.futures import ThreadPoolExecutor\n\nimport warp as wp\n\n"
        "JOBS = [(1.0, 2.0), (-1.0, 0.5)]\n\n\n"
        "def make_shift(offset, scale):\n    @wp.kernel\n    def shift(x: wp.array(dtype=float)):\n"
        "        x[wp.tid()] = x[wp.tid()] * scale + offset\n\n    return shift\n\n\n"
        "def make_gain(g):\n    @wp.kernel\n    def gain(x: wp.array(dtype=float)):\n        x[wp.tid()] *= g\n\n"
        "    return gain\n\n\ndef worker(g, out):\n    out.append(make_gain(g))\n\n\n"
        "if __name__ == '__main__':\n    shifts = list(itertools.starmap(make_shift, JOBS))\n    made = []\n"
        "    t = threading.Thread(target=worker, args=(3.0, made))\n    t.start()\n    t.join()\n"
        "    with ThreadPoolExecutor() as ex:\n        half = ex.submit(make_gain, 0.5).result()\n",
    )
    got = sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records)
    assert got == [
        ("make_gain.<locals>.gain", "g = 0.5"),
        ("make_gain.<locals>.gain", "g = 3.0"),
        ("make_shift.<locals>.shift", "offset = -1.0\nscale = 0.5"),
        ("make_shift.<locals>.shift", "offset = 1.0\nscale = 2.0"),
    ]


def test_parametrize_by_keyword_gives_its_rows(tmp_path):
    """`@pytest.mark.parametrize(argnames="power", argvalues=[2, 3], ids=[...])`: only the positional form was
    read, so the test's kernel had no values."""
    records = _harvest_script(
        tmp_path,
        "test_keywords.py",
        "import pytest\nimport warp as wp\n\n\n"
        "@pytest.mark.parametrize(argnames='power', argvalues=[2, 3], ids=['sq', 'cube'])\ndef test_power(power):\n"
        "    @wp.kernel\n    def raise_to(x: wp.array(dtype=float)):\n"
        "        x[wp.tid()] = wp.pow(x[wp.tid()], float(power))\n\n\n"
        "@pytest.mark.parametrize('n', argvalues=[4])\ndef test_mask(n):\n    @wp.kernel\n"
        "    def first_n(x: wp.array(dtype=float)):\n        if wp.tid() >= n:\n            x[wp.tid()] = 0.0\n",
    )
    got = sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records)
    assert got == [
        ("test_mask.<locals>.first_n", "n = 4"),
        ("test_power.<locals>.raise_to", "power = 2"),
        ("test_power.<locals>.raise_to", "power = 3"),
    ]


def test_hypothesis_strategies_of_listed_values_give_each_value(tmp_path):
    """A `unittest` test under hypothesis's `@given(st.sampled_from([0.5, 2.0]), st.booleans())` making a kernel
    from the drawn values: nothing called the test, so its kernel had none. Positional strategies fill the last
    parameters (after `self`), as `given` fills them; `st.floats()` stays unresolved (only a run draws them)."""
    pytest.importorskip("hypothesis")
    (tmp_path / "test_props.py").write_text(
        "import unittest\n\nimport warp as wp\nfrom hypothesis import given\n"
        "from hypothesis import strategies as st\n\n\n"
        "class TestProps(unittest.TestCase):\n    @given(st.sampled_from([0.5, 2.0]), st.booleans())\n"
        "    def test_scale(self, factor, flag):\n        @wp.kernel\n        def scale_by(x: wp.array(dtype=float)):\n"
        "            if wp.static(flag):\n                x[wp.tid()] = x[wp.tid()] * factor\n\n"
        "    @given(st.floats(0.0, 1.0))\n    def test_random(self, v):\n        @wp.kernel\n"
        "        def fill_v(x: wp.array(dtype=float)):\n            x[wp.tid()] = v\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    got = sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records)
    assert got == [
        ("TestProps.test_scale.<locals>.scale_by", "factor = 0.5\nflag = False"),
        ("TestProps.test_scale.<locals>.scale_by", "factor = 0.5\nflag = True"),
        ("TestProps.test_scale.<locals>.scale_by", "factor = 2.0\nflag = False"),
        ("TestProps.test_scale.<locals>.scale_by", "factor = 2.0\nflag = True"),
    ]
    assert [(r.kernel, "values only a run knows" in r.detail) for r in result.reasons] == [
        ("TestProps.test_random.<locals>.fill_v", True)
    ]


def test_a_class_of_constants_reached_through_to_a_nested_class_is_written(tmp_path):
    """`Tuning.Limits.LO` read directly in a kernel (a plain class of constants holding another): a class of
    constants was written only for its own attributes, so the kernel was refused; it is now written as a
    namespace holding the nested class."""
    records = _harvest_script(
        tmp_path,
        "nested-consts.py",
        "import warp as wp\n\n\nclass Tuning:\n    class Limits:\n        LO = -0.5\n        HI = 2.5\n\n"
        "    GAIN = 1.5\n\n\n@wp.kernel\ndef gain_clamp(x: wp.array(dtype=float)):\n    i = wp.tid()\n"
        "    x[i] = wp.clamp(Tuning.GAIN * x[i], Tuning.Limits.LO, Tuning.Limits.HI)\n",
    )
    assert [r["qualname"] for r in records] == ["gain_clamp"]
    assert "class Limits:\n    HI = 2.5\n    LO = -0.5" in records[0]["source"]
    assert "class Tuning:\n    GAIN = GAIN\n    Limits = Limits" in records[0]["source"]


def test_a_struct_instance_read_through_wp_static_is_written_as_settings(tmp_path):
    """A module-level `wp.struct` instance filled host-side and read as `wp.static(P.substeps)`: no literal
    wrote a struct instance, so the kernel was refused; it is written as a class of the fields used, as a
    dataclass instance is."""
    records = _harvest_script(
        tmp_path,
        "struct-static.py",
        "import warp as wp\n\n\n@wp.struct\nclass SimParams:\n    dt: float\n    substeps: int\n\n\n"
        "P = SimParams()\nP.dt = 0.5\nP.substeps = 3\n\n\n"
        "@wp.kernel\ndef fall(v: wp.array(dtype=float)):\n    i = wp.tid()\n"
        "    for _ in range(wp.static(P.substeps)):\n        v[i] = v[i] - wp.static(P.dt)\n",
    )
    assert [r["qualname"] for r in records] == ["fall"]
    assert "class P:\n    dt = dt\n    substeps = substeps" in records[0]["source"]
    assert "dt = 0.5\nsubsteps = 3" in records[0]["source"]


def test_an_optparse_parser_in_main_gives_its_defaults(tmp_path):
    """`opts, rest = parser.parse_args()` of an `optparse.OptionParser` in `main()`, its option handed to a
    factory: only argparse's `add_argument` was read, so the options had no values; optparse's `add_option`
    gives its defaults (a string default converted by the `type="float"` name, no default read as None)."""
    records = _harvest_script(
        tmp_path,
        "old-cli.py",
        "from optparse import OptionParser\n\nimport warp as wp\n\n\ndef make_threshold(level, flip):\n"
        "    @wp.kernel\n    def threshold(x: wp.array(dtype=float), m: wp.array(dtype=int)):\n"
        "        i = wp.tid()\n        above = x[i] > level\n        if wp.static(flip is None):\n"
        "            m[i] = int(above)\n\n    return threshold\n\n\ndef main():\n    p = OptionParser()\n"
        "    p.add_option('-l', '--level', type='float', default='0.25')\n"
        "    p.add_option('--flip', action='store_true')\n"
        "    opts, rest = p.parse_args()\n    return make_threshold(opts.level, opts.flip)\n\n\n"
        "if __name__ == '__main__':\n    main()\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("make_threshold.<locals>.threshold", "flip = None\nlevel = 0.25")
    ]


def test_argparse_defaults_spread_by_vars_into_main(tmp_path):
    """`main(**vars(parser.parse_args()))` under `__main__`, `main` making a kernel from its parameters: `vars`
    was a call the harvest refused ("calls ArgumentParser, which may act" for the parser it then tried to
    make), so the kernel had no values; the parse's defaults are the keywords `main` gets."""
    records = _harvest_script(
        tmp_path,
        "run-sim.py",
        "import argparse\n\nimport warp as wp\n\n\ndef main(n: int = 8, gain: float = 2.0):\n"
        "    @wp.kernel\n    def amplify(a: wp.array(dtype=float)):\n        i = wp.tid()\n"
        "        a[i] = gain * a[i]\n\n    return amplify\n\n\nif __name__ == '__main__':\n"
        "    parser = argparse.ArgumentParser()\n    parser.add_argument('--n', type=int, default=4)\n"
        "    parser.add_argument('--gain', type=float, default=3.0)\n    main(**vars(parser.parse_args()))\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("main.<locals>.amplify", "gain = 3.0")
    ]


def test_a_fixture_parameter_gets_the_value_of_the_fixture_it_names(tmp_path):
    """A fixture making a kernel from a parameter that names another fixture (`def threshold(level): return
    make(level)`, `@pytest.fixture def level(): return 0.75`): the parameter had no default and no caller;
    pytest gives it the other fixture's returned value, and so does the harvest (fixtures with `params=`
    were read already)."""
    records = _harvest_script(
        tmp_path,
        "test_levels.py",
        "import pytest\nimport warp as wp\n\n\ndef make_threshold(level):\n    @wp.kernel\n"
        "    def above(a: wp.array(dtype=float), out: wp.array(dtype=int)):\n        i = wp.tid()\n"
        "        out[i] = wp.where(a[i] > level, 1, 0)\n\n    return above\n\n\n@pytest.fixture\ndef level():\n"
        "    return 0.75\n\n\n@pytest.fixture(scope='module')\ndef threshold_kernel(level):\n"
        "    return make_threshold(level)\n\n\ndef test_threshold(threshold_kernel):\n"
        "    assert threshold_kernel is not None\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("make_threshold.<locals>.above", "level = 0.75")
    ]


def test_a_sibling_imported_first_still_gets_its_inner_and_called_factory_kernels(tmp_path):
    """`app.py` (harvested first) imports `lib.py` and calls its factory only in `main()` under `__main__`:
    the import ran `lib.py`, so its own harvest found the module loaded and made none of the kernels the
    harvest makes from a file's text (`build`'s, inside a function nobody calls), and `make_gain`'s call was
    in another file than the factory. Both are made now: the file's text kernels once per worker whoever
    loaded it, and a sibling's factory for the values its importer's calls give."""
    (tmp_path / "lib.py").write_text(
        "import warp as wp\n\n\ndef make_gain(g):\n    @wp.kernel\n    def gain(a: wp.array(dtype=float)):\n"
        "        i = wp.tid()\n        a[i] = g * a[i]\n\n    return gain\n\n\ndef build():\n    @wp.kernel\n"
        "    def flat(a: wp.array(dtype=float)):\n        a[wp.tid()] = 1.0\n\n    return flat\n"
    )
    (tmp_path / "app.py").write_text(
        "import warp as wp\nfrom lib import make_gain\n\n\ndef main():\n    k = make_gain(2.5)\n"
        "    wp.launch(k, dim=1, inputs=[wp.zeros(1, dtype=float)])\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    found = sorted(
        (r["file"].rpartition("/")[2], r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records
    )
    assert [(p, q) for p, q, _ in found] == [("lib.py", "build.<locals>.flat"), ("lib.py", "make_gain.<locals>.gain")]
    assert found[1][2] == "g = 2.5"


def test_argparse_options_of_groups_set_defaults_and_a_built_parser_are_read(tmp_path):
    """A parser built and returned by a function of the script (`build_parser().parse_args(argv)` in
    `main(argv=None)`, called as `main(sys.argv[1:])`), options added to an argument group and a mutually
    exclusive group, and `parser.set_defaults(...)`: the harvest read only options added to a parser by name
    in the parsing function ("calls build_parser, which may act"; "'_Parsed' object has no attribute")."""
    records = _harvest_script(
        tmp_path,
        "my-cli.py",
        "import argparse\nimport sys\n\nimport warp as wp\n\n\ndef build_parser():\n"
        "    p = argparse.ArgumentParser()\n    phys = p.add_argument_group('physics')\n"
        "    phys.add_argument('--time-step', type=float, default='0.25')\n"
        "    mode = phys.add_mutually_exclusive_group()\n    mode.add_argument('--fast', action='store_true')\n"
        "    p.add_argument('--gain', type=float, default=1.0)\n    p.set_defaults(gain=2.0)\n    return p\n\n\n"
        "def make_step(dt, gain, fast):\n    @wp.kernel\n    def step(x: wp.array(dtype=float)):\n"
        "        i = wp.tid()\n        if wp.static(fast):\n            x[i] = x[i] + dt\n        else:\n"
        "            x[i] = gain * x[i] + dt\n\n    return step\n\n\ndef main(argv=None):\n"
        "    args = build_parser().parse_args(argv)\n    return make_step(args.time_step, args.gain, args.fast)\n\n\n"
        "if __name__ == '__main__':\n    sys.exit(main(sys.argv[1:]))\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("make_step.<locals>.step", "dt = 0.25\nfast = False\ngain = 2.0")
    ]


def test_a_factory_kernel_under_future_annotations_is_made(tmp_path):
    """`from __future__ import annotations` and a factory whose kernel's annotation reads its parameter
    (`a: wp.array(dtype=dtype)`): the harvest guarded the calls in the annotation, which under PEP 563 is a
    string Warp evaluates in the kernel's closure, where the guard's name is not ("NameError: name
    '__wci_call__' is not defined")."""
    records = _harvest_script(
        tmp_path,
        "typed-factory.py",
        "from __future__ import annotations\n\nimport warp as wp\n\n\ndef make_scale(dtype, s: float = 2.0):\n"
        "    @wp.kernel\n    def scale_typed(a: wp.array(dtype=dtype)) -> None:\n        i = wp.tid()\n"
        "        a[i] = a[i] * dtype(s)\n\n    return scale_typed\n\n\nif __name__ == '__main__':\n"
        "    make_scale(wp.float64)\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("make_scale.<locals>.scale_typed", "dtype = wp.float64\ns = 2.0")
    ]


def test_a_factory_kernel_after_if_and_for_blocks_that_set_its_values_is_made(tmp_path):
    """A factory that sets the kernel's values in blocks before it (`if width is None: width = 3`, an
    `if`/`else` binding a name in both arms, `for w in weights: total += w`): a name bound inside a block
    was refused ("width is bound inside a block of make_window"); such blocks, which only assign, are kept
    and run with the call's values."""
    records = _harvest_script(
        tmp_path,
        "blocks.py",
        "import warp as wp\n\n\ndef make_window(width=None, weights=(1.0, 2.0, 1.0), clamp=True):\n"
        "    if width is None:\n        width = 3\n    half = width // 2\n    if clamp:\n        lo = 0.0\n"
        "    else:\n        lo = -1.0\n    total = 0.0\n    for w in weights:\n        total += w\n\n"
        "    @wp.kernel\n    def window(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
        "        i = wp.tid()\n        s = float(0.0)\n        for k in range(-half, half + 1):\n"
        "            s += a[wp.clamp(i + k, 0, a.shape[0] - 1)]\n        out[i] = wp.max(s / total, lo)\n\n"
        "    return window\n\n\nif __name__ == '__main__':\n    make_window()\n    make_window(5, clamp=False)\n",
    )
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records) == [
        ("make_window.<locals>.window", "half = 1\nlo = 0.0\ntotal = 4.0"),
        ("make_window.<locals>.window", "half = 2\nlo = -1.0\ntotal = 4.0"),
    ]


def test_settings_nested_by_a_default_factory_are_made_in_main(tmp_path):
    """Frozen dataclass settings nested in settings by `field(default_factory=SolverCfg)`, made in `main()`
    (`Cfg(solver=SolverCfg(iters=5))`) and given to factories: making a dataclass whose `default_factory` is
    not a built-in container was refused as a call that may act ("calls Cfg, which may act"), though a
    generated dataclass's own `__init__` runs none of the script's code."""
    records = _harvest_script(
        tmp_path,
        "nested-cfg.py",
        "from dataclasses import dataclass, field\n\nimport warp as wp\n\n\n@dataclass(frozen=True)\n"
        "class SolverCfg:\n    iters: int = 3\n\n\n@dataclass(frozen=True)\nclass Cfg:\n"
        "    solver: SolverCfg = field(default_factory=SolverCfg)\n    gain: float = 2.0\n\n\n"
        "def make_relax(iters, gain):\n    @wp.kernel\n    def relax(x: wp.array(dtype=float)):\n"
        "        i = wp.tid()\n        for _ in range(iters):\n            x[i] = gain * x[i]\n\n    return relax\n\n\n"
        "def main():\n    cfg = Cfg(solver=SolverCfg(iters=5))\n    make_relax(cfg.solver.iters, cfg.gain)\n\n\n"
        "if __name__ == '__main__':\n    main()\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("make_relax.<locals>.relax", "gain = 2.0\niters = 5")
    ]


def test_stdlib_containers_and_record_arrays_read_through_wp_static_are_written(tmp_path):
    """Module-level values read only through `wp.static`: an `array.array`, a `collections.deque` with a
    `maxlen`, a `ChainMap` of overrides over defaults, a numpy structured (record) array and one of its
    records. Each had no literal ("cannot write a array.array value as a literal"); each is written as the
    expression that makes it, and the text's code is Warp's."""
    records = _harvest_script(
        tmp_path,
        "tables.py",
        "import array\nfrom collections import ChainMap, deque\n\nimport numpy as np\nimport warp as wp\n\n"
        "TAPS = array.array('d', [0.25, 0.5, 0.25])\nHIST = deque([0.1, 0.2, 0.3], maxlen=3)\nHIST.append(0.4)\n"
        "SPRING = ChainMap({'k': 250.0}, {'k': 100.0, 'rest': 1.0})\n"
        "MATS = np.array([(1.0e4, 0.3), (5.0e5, 0.45)], dtype=[('E', 'f8'), ('nu', 'f4')])\nSTEEL = MATS[1]\n\n\n"
        "@wp.kernel\ndef tables(a: wp.array(dtype=float)):\n    i = wp.tid()\n"
        "    a[i] = wp.static(TAPS[1]) * a[i] + wp.static(HIST[0] + SPRING['k'] - SPRING['rest'])\n"
        "    a[i] += wp.static(float(STEEL['E']) * float(MATS['nu'][0]))\n",
    )
    assert len(records) == 1
    source = records[0]["source"]
    for written in (
        "array.array('d', [0.25, 0.5, 0.25])",
        "collections.deque([0.2, 0.3, 0.4], maxlen=3)",
        "collections.ChainMap({'k': 250.0}, {'k': 100.0, 'rest': 1.0})",
        "np.array([(10000.0, 0.30000001192092896), (500000.0, 0.44999998807907104)], "
        "dtype=[('E', '<f8'), ('nu', '<f4')])",
    ):
        assert written in source, source


def test_a_factory_called_with_starred_arguments_gets_them_spread(tmp_path):
    """`make_clip(*sorted(LIMITS))` in `main()` and `make_clip(*bounds)` in a loop over pairs: a call passing
    `*args` was refused ("passes *args"); a sequence of one length wherever the call is spreads into the
    parameters, read together for each loop item."""
    records = _harvest_script(
        tmp_path,
        "starred.py",
        "import warp as wp\n\nLIMITS = {0.5, -0.5}\nPAIRS = [(0.0, 1.0), (-2.0, 2.0)]\n\n\ndef make_clip(lo, hi):\n"
        "    @wp.kernel\n    def clip(a: wp.array(dtype=float)):\n        i = wp.tid()\n"
        "        a[i] = wp.clamp(a[i], lo, hi)\n\n    return clip\n\n\ndef main():\n    make_clip(*sorted(LIMITS))\n"
        "    for bounds in PAIRS:\n        make_clip(*bounds)\n\n\nif __name__ == '__main__':\n    main()\n",
    )
    assert sorted(r["source"].split("\n\n\n")[1] for r in records) == [
        "hi = 0.5\nlo = -0.5",
        "hi = 1.0\nlo = 0.0",
        "hi = 2.0\nlo = -2.0",
    ]


def test_a_factory_computing_its_captured_values_with_warp_math_is_made(tmp_path):
    """A factory computing the values its kernel captures with Warp's math builtins run in Python
    (`d = wp.normalize(wp.vec3(*direction))`, `wp.quat_from_axis_angle(...)`), called in `main()`: a call of a
    Warp builtin was refused ("calls Function, which may act"); those that only compute on values are run."""
    records = _harvest_script(
        tmp_path,
        "rays.py",
        "import math\n\nimport warp as wp\n\n\ndef make_turn(direction=(2.0, 0.0, 0.0), angle=0.5 * math.pi):\n"
        "    d = wp.normalize(wp.vec3(*direction))\n    q = wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), angle)\n\n"
        "    @wp.kernel\n    def turn(p: wp.array(dtype=wp.vec3)):\n        i = wp.tid()\n"
        "        p[i] = wp.quat_rotate(q, p[i] + d)\n\n    return turn\n\n\ndef main():\n    make_turn()\n\n\n"
        "if __name__ == '__main__':\n    main()\n",
    )
    assert [r["qualname"] for r in records] == ["make_turn.<locals>.turn"]
    assert "d = wp.vec3(1.0, 0.0, 0.0)" in records[0]["source"]


def test_a_factory_defined_under_the_main_guard_is_made_with_the_scripts_own_argv(tmp_path):
    """A factory defined inside `if __name__ == "__main__":` and called there with a value read off the
    command line (`int(sys.argv[1]) if len(sys.argv) > 1 else 3`): a function defined in a top-level block
    had no callers ("called nowhere in the script"), and `sys.argv` read while evaluating was the
    harvest's own command line, not the script's, which runs without arguments."""
    records = _harvest_script(
        tmp_path,
        "avg.py",
        "import sys\n\nimport warp as wp\n\nif __name__ == '__main__':\n"
        "    taps = int(sys.argv[1]) if len(sys.argv) > 1 else 3\n\n    def make_average(n):\n"
        "        @wp.kernel\n        def average(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
        "            i = wp.tid()\n            s = float(0.0)\n            for k in range(n):\n"
        "                s += a[wp.max(i - k, 0)]\n            out[i] = s / float(n)\n\n        return average\n\n"
        "    make_average(taps)\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("make_average.<locals>.average", "n = 3")
    ]


def test_indirect_parametrization_gives_the_fixture_its_request_params(tmp_path):
    """`@pytest.mark.parametrize("threshold, expected", [...], indirect=["threshold"])`: pytest hands each
    row's first value to the fixture `threshold` as `request.param`, which makes the kernel from it; the
    fixture's `request` had no caller ("request, a parameter of threshold, has no default and no caller")."""
    records = _harvest_script(
        tmp_path,
        "test_levels.py",
        "import pytest\nimport warp as wp\n\n\ndef make_threshold(level):\n    @wp.kernel\n"
        "    def above(a: wp.array(dtype=float), out: wp.array(dtype=int)):\n        i = wp.tid()\n"
        "        out[i] = wp.where(a[i] > level, 1, 0)\n\n    return above\n\n\n@pytest.fixture\n"
        "def threshold(request):\n    return make_threshold(request.param)\n\n\n"
        "@pytest.mark.parametrize('threshold, expected', [(2.5, 5), (6.5, 1)], indirect=['threshold'])\n"
        "def test_count(threshold, expected):\n    assert threshold is not None\n",
    )
    assert sorted(r["source"].split("\n\n\n")[1] for r in records) == ["level = 2.5", "level = 6.5"]


def test_a_test_method_looping_over_a_class_attribute_gets_its_values(tmp_path):
    """A `unittest` test method making kernels in `for lo, hi in self.BOUNDS:` over a class attribute:
    `self` had no caller ("self, a parameter of test_clamp, has no default and no caller"); its runner calls
    the method on an instance whose data attributes are the class's (one a method sets on `self` stays unread)."""
    records = _harvest_script(
        tmp_path,
        "test_clamps.py",
        "import unittest\n\nimport warp as wp\n\n\ndef make_clamp(lo, hi):\n    @wp.kernel\n"
        "    def clamp(a: wp.array(dtype=float)):\n        i = wp.tid()\n        a[i] = wp.clamp(a[i], lo, hi)\n\n"
        "    return clamp\n\n\nclass TestClamp(unittest.TestCase):\n    BOUNDS = [(0.0, 1.0), (-0.5, 0.5)]\n\n"
        "    @unittest.skipIf(False, 'never')\n    def test_clamp(self):\n        for lo, hi in self.BOUNDS:\n"
        "            make_clamp(lo, hi)\n\n\nif __name__ == '__main__':\n    unittest.main()\n",
    )
    assert sorted(r["source"].split("\n\n\n")[1] for r in records) == ["hi = 0.5\nlo = -0.5", "hi = 1.0\nlo = 0.0"]


def test_a_star_imported_siblings_factory_called_in_main_is_made(tmp_path):
    """`from kfactory import *` (with `__all__`) and the sibling's factory called only in `main()` under
    `__main__`: factories imported by name were made for their importer's calls, star-imported ones were not
    ("make_gamma is called nowhere in the script with values the harvest can read")."""
    (tmp_path / "kfactory.py").write_text(
        "import warp as wp\n\n__all__ = ['make_gamma']\n\n\ndef make_gamma(gamma):\n    @wp.kernel\n"
        "    def gamma_curve(a: wp.array(dtype=float)):\n        i = wp.tid()\n"
        "        a[i] = wp.pow(wp.max(a[i], 0.0), gamma)\n\n    return gamma_curve\n"
    )
    (tmp_path / "app.py").write_text(
        "import warp as wp\nfrom kfactory import *\n\n\ndef main():\n    make_gamma(2.2)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert result.reasons == []
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records] == [
        ("make_gamma.<locals>.gamma_curve", "gamma = 2.2")
    ]


def test_a_factory_argument_computed_by_the_scripts_own_pure_helpers_is_made(tmp_path):
    """`make_blur(gauss_weights(2))` and `make_advect(cfl_dt(dx, 2.0), dx)` in `main()`: a call of the
    script's own function was refused ("calls gauss_weights, which may act"). A top-level function whose body
    only computes runs guarded, its own calls checked as the harvest's are; one that reads a file stays
    refused, with its reason."""
    (tmp_path / "blur.py").write_text(
        "import math\nimport warp as wp\n\n\ndef gauss_weights(radius, sigma=1.0):\n"
        "    w = [math.exp(-0.5 * (k / sigma) ** 2) for k in range(-radius, radius + 1)]\n    total = sum(w)\n"
        "    return tuple(round(x / total, 6) for x in w)\n\n\ndef cfl_dt(dx, speed, cfl=0.5):\n"
        "    return cfl * dx / speed\n\n\ndef read_gain():\n    return float(open('gain.txt').read())\n\n\n"
        "def make_blur(weights, dt):\n    @wp.kernel\n"
        "    def blur(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
        "        i = wp.tid()\n        s = float(0.0)\n        for k in range(wp.static(len(weights))):\n"
        "            s += wp.static(weights[k]) * a[wp.clamp(i + k - 1, 0, a.shape[0] - 1)]\n"
        "        out[i] = s * dt\n\n"
        "    return blur\n\n\ndef make_gain(g):\n    @wp.kernel\n    def gain(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] *= g\n\n    return gain\n\n\ndef main():\n"
        "    make_blur(gauss_weights(1), cfl_dt(0.5, 2.0))\n"
        "    make_gain(read_gain())\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records] == [
        ("make_blur.<locals>.blur", "dt = 0.125\nweights = (0.274069, 0.451863, 0.274069)")
    ]
    assert [(r.kernel, "opens 'gain.txt', no file of the script's folder" in r.detail) for r in result.reasons] == [
        ("make_gain.<locals>.gain", True)
    ]


def test_a_kernel_in_a_class_body_arm_the_load_did_not_take_is_made(tmp_path):
    """A kernel defined in each arm of an `if` in a class body (`class Integrator: if USE_RK2: ... else:
    ...`): the arm the load took was harvested, the other was "not found at import"; top-level arms were
    made from the text already, class-body ones now are too, under the class's qualified name."""
    records = _harvest_script(
        tmp_path,
        "integrators.py",
        "import os\n\nimport warp as wp\n\nUSE_RK2 = os.environ.get('NO_SUCH_SETTING') == '1'\n\n\n"
        "class Integrator:\n    if USE_RK2:\n\n        @wp.kernel\n"
        "        def step(x: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):\n"
        "            i = wp.tid()\n            x[i] = x[i] + dt * (v[i] + 0.5 * dt * x[i])\n\n    else:\n\n"
        "        @wp.kernel\n        def step(x: wp.array(dtype=float), v: wp.array(dtype=float), dt: float):\n"
        "            i = wp.tid()\n            x[i] = x[i] + dt * v[i]\n",
    )
    assert sorted((r["qualname"], r["line"]) for r in records) == [("Integrator.step", 11), ("Integrator.step", 18)]


def test_a_factory_swept_over_numpy_ranges_in_main_is_made_for_each_value(tmp_path):
    """`for n in np.arange(2, 4): make_pow(int(n))` and `for t in np.linspace(0.0, 1.0, 3)` in `main()`: numpy's
    range makers were calls that may act ("calls arange, which may act") and a numpy array was no sequence a
    loop could take; a small range of plain numbers is computed and looped over (`np.arange(10**9)` is not)."""
    records = _harvest_script(
        tmp_path,
        "sweep.py",
        "import numpy as np\nimport warp as wp\n\n\ndef make_pow(n, t):\n    @wp.kernel\n"
        "    def pw(a: wp.array(dtype=float)):\n        i = wp.tid()\n        r = float(t)\n"
        "        for _ in range(n):\n            r = r * a[i]\n        a[i] = r\n\n    return pw\n\n\ndef main():\n"
        "    for n in np.arange(2, 4):\n        make_pow(int(n), 1.0)\n    for t in np.linspace(0.0, 1.0, 3):\n"
        "        make_pow(2, float(t))\n\n\nif __name__ == '__main__':\n    main()\n",
    )
    assert sorted(r["source"].split("\n\n\n")[1] for r in records) == [
        "n = 2\nt = 0.0",
        "n = 2\nt = 0.5",
        "n = 2\nt = 1.0",
        "n = 3\nt = 1.0",
    ]


def test_an_attribute_dict_read_by_attribute_through_wp_static_is_written_as_a_namespace(tmp_path):
    """An "easydict" settings object (`class AttrDict(dict): __getattr__ = dict.__getitem__`) read as
    `wp.static(CFG.substeps)`: it was written as a dict literal, which has no such attribute ("Warp codegen
    failed ... Error evaluating"); a class holding the keys used reads the same."""
    records = _harvest_script(
        tmp_path,
        "easycfg.py",
        "import warp as wp\n\n\nclass AttrDict(dict):\n    __getattr__ = dict.__getitem__\n"
        "    __setattr__ = dict.__setitem__\n\n\nCFG = AttrDict(dt=0.01, damping=0.2)\nCFG.substeps = 4\n\n\n"
        "@wp.kernel\ndef damp(v: wp.array(dtype=float)):\n    i = wp.tid()\n"
        "    for _ in range(wp.static(CFG.substeps)):\n        v[i] = v[i] * (1.0 - wp.static(CFG.damping * CFG.dt))\n",
    )
    assert len(records) == 1
    source = records[0]["source"]
    assert "class CFG:\n    damping = damping\n    dt = dt\n    substeps = substeps" in source
    assert "damping = 0.2\ndt = 0.01\nsubsteps = 4" in source


def test_settings_with_fields_derived_in_post_init_are_made_and_spread_by_asdict(tmp_path):
    """A dataclass whose `__post_init__` only derives a field from others (`self.dt_sub = self.dt /
    self.substeps`), made in `main()`, its field and `**asdict(cfg)` given to factories: a method the script
    wrote made the class a call that may act ("calls SimConfig, which may act"), and so was `asdict`. One whose
    `__post_init__` calls anything else (`print`) stays refused."""
    (tmp_path / "derived.py").write_text(
        "from dataclasses import asdict, dataclass, field\n\nimport warp as wp\n\n\n@dataclass\nclass SimConfig:\n"
        "    dt: float = 0.01\n    substeps: int = 4\n    dt_sub: float = field(init=False)\n\n"
        "    def __post_init__(self):\n        self.dt_sub = self.dt / self.substeps\n\n\n@dataclass\nclass Loud:\n"
        "    dt: float = 0.01\n\n    def __post_init__(self):\n        print(self.dt)\n\n\n"
        "def make_step(dt_sub):\n    @wp.kernel\n    def step(x: wp.array(dtype=float)):\n"
        "        x[wp.tid()] += dt_sub\n\n    return step\n\n\ndef make_loop(dt, substeps, dt_sub):\n    @wp.kernel\n"
        "    def loop(x: wp.array(dtype=float)):\n        i = wp.tid()\n        for _ in range(substeps):\n"
        "            x[i] += dt_sub * dt\n\n    return loop\n\n\ndef make_loud(dt):\n    @wp.kernel\n"
        "    def loud(x: wp.array(dtype=float)):\n        x[wp.tid()] += dt\n\n    return loud\n\n\ndef main():\n"
        "    cfg = SimConfig(dt=0.02)\n    make_step(cfg.dt_sub)\n    make_loop(**asdict(cfg))\n"
        "    make_loud(Loud().dt)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_loop.<locals>.loop", "dt = 0.02\ndt_sub = 0.005\nsubsteps = 4"),
        ("make_step.<locals>.step", "dt_sub = 0.005"),
    ]
    assert [(r.kernel, "calls Loud, which may act" in r.detail) for r in result.reasons] == [
        ("make_loud.<locals>.loud", True)
    ]


def test_a_kernel_made_in_init_through_a_classmethod_constructor_is_made(tmp_path):
    """`Spring.from_config(CONFIG)` whose `@classmethod` returns `cls(**cfg)`, the kernel made in `__init__`:
    `cls(...)` was no call of the class ("__init__ is called nowhere in the script with values the harvest
    can read")."""
    records = _harvest_script(
        tmp_path,
        "springs.py",
        "import warp as wp\n\nCONFIG = {'stiffness': 40.0, 'mass': 2.0}\n\n\nclass Spring:\n"
        "    def __init__(self, stiffness, mass):\n        omega2 = stiffness / mass\n\n        @wp.kernel\n"
        "        def accel(x: wp.array(dtype=float), a: wp.array(dtype=float)):\n            i = wp.tid()\n"
        "            a[i] = -omega2 * x[i]\n\n        self.kernel = accel\n\n    @classmethod\n"
        "    def from_config(cls, cfg):\n        return cls(**cfg)\n\n\nif __name__ == '__main__':\n"
        "    Spring.from_config(CONFIG)\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("Spring.__init__.<locals>.accel", "omega2 = 20.0")
    ]


def test_singledispatch_registrations_are_made_for_the_calls_that_dispatch_to_them(tmp_path):
    """Factories registered on a `functools.singledispatch` function (`@build_fill.register` by annotation,
    `@build_fill.register(int)`) and reached through `build_fill(2.5)`, `build_fill(7)`: each registration was
    "called nowhere in the script"; each is made for the calls whose first argument dispatches to it."""
    records = _harvest_script(
        tmp_path,
        "dispatch.py",
        "import functools\n\nimport warp as wp\n\n\n@functools.singledispatch\ndef build_fill(value):\n"
        "    raise TypeError(type(value))\n\n\n@build_fill.register\ndef _(value: float):\n    @wp.kernel\n"
        "    def fill_float(a: wp.array(dtype=float)):\n        a[wp.tid()] = value\n\n    return fill_float\n\n\n"
        "@build_fill.register(int)\ndef _fill_int(value):\n    @wp.kernel\n    def fill_int(a: wp.array(dtype=int)):\n"
        "        a[wp.tid()] = value\n\n    return fill_int\n\n\nif __name__ == '__main__':\n    build_fill(2.5)\n"
        "    build_fill(7)\n",
    )
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records) == [
        ("_.<locals>.fill_float", "value = 2.5"),
        ("_fill_int.<locals>.fill_int", "value = 7"),
    ]


def test_factories_looked_up_in_a_table_by_an_environment_setting_are_made(tmp_path):
    """`BUILDERS.get(name, make_identity)(param)` and `BUILDERS[name](param)` in `run(name, param)`, called
    under `__main__` with `os.environ.get("OP", "square")`: a call through a lookup was no call of the
    factory, and reading the environment was a call that may act; the environment is read as the script's
    top level reads it, and the lookup's values name the factories called."""
    records = _harvest_script(
        tmp_path,
        "dispatch-env.py",
        "import os\n\nimport warp as wp\n\n\ndef make_square(scale):\n    @wp.kernel\n"
        "    def square(a: wp.array(dtype=float)):\n        i = wp.tid()\n        a[i] = scale * a[i] * a[i]\n\n"
        "    return square\n\n\ndef make_cube(scale):\n    @wp.kernel\n    def cube(a: wp.array(dtype=float)):\n"
        "        i = wp.tid()\n        a[i] = scale * a[i] * a[i] * a[i]\n\n    return cube\n\n\n"
        "BUILDERS = {'square': make_square, 'cube': make_cube}\n\n\ndef run(name, param):\n"
        "    return BUILDERS.get(name, make_cube)(param)\n\n\ndef run_strict(name):\n"
        "    return BUILDERS[name](2.0)\n\n\n"
        "if __name__ == '__main__':\n    run(os.environ.get('NO_SUCH_OP', 'square'), 0.5)\n    run_strict('cube')\n",
    )
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records) == [
        ("make_cube.<locals>.cube", "scale = 2.0"),
        ("make_square.<locals>.square", "scale = 0.5"),
    ]


def test_a_method_kernel_reading_attributes_its_constructor_sets_is_made_per_construction(tmp_path):
    """A method making a kernel from `self.lo, self.hi` that `__init__` sets, called on instances the script
    makes (`Rescaler(-1.0, 1.0).kernel()`, `r = Rescaler(0.0, 2.0)` then `r.kernel()`): no method of the
    class calls it, so its attributes had no values ("self.hi is not set in kernel before the kernel"); the
    constructor's calls give them."""
    records = _harvest_script(
        tmp_path,
        "rescale.py",
        "import warp as wp\n\n\nclass Rescaler:\n    def __init__(self, lo, hi):\n        self.lo = lo\n"
        "        self.hi = hi\n\n    def kernel(self):\n        lo, hi = self.lo, self.hi\n\n        @wp.kernel\n"
        "        def rescale(a: wp.array(dtype=float)):\n            i = wp.tid()\n"
        "            a[i] = lo + (hi - lo) * a[i]\n\n        return rescale\n\n\ndef main():\n"
        "    Rescaler(-1.0, 1.0).kernel()\n    r = Rescaler(0.0, 2.0)\n    r.kernel()\n\n\n"
        "if __name__ == '__main__':\n    main()\n",
    )
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records) == [
        ("Rescaler.kernel.<locals>.rescale", "hi = 1.0\nlo = -1.0"),
        ("Rescaler.kernel.<locals>.rescale", "hi = 2.0\nlo = 0.0"),
    ]


def test_a_method_kernel_whose_attributes_a_setter_changes_is_not_made_from_the_constructor(tmp_path):
    """A builder whose setters change the attributes `build()` reads (`AffineBuilder().gain(2.0).build()`):
    `__init__`'s values would make a kernel the script never makes, so the kernel keeps its reason."""
    (tmp_path / "builder.py").write_text(
        "import warp as wp\n\n\nclass AffineBuilder:\n    def __init__(self):\n        self._gain = 1.0\n\n"
        "    def gain(self, g):\n        self._gain = g\n        return self\n\n    def build(self):\n"
        "        g = self._gain\n\n        @wp.kernel\n        def affine(a: wp.array(dtype=float)):\n"
        "            a[wp.tid()] *= g\n\n        return affine\n\n\nif __name__ == '__main__':\n"
        "    AffineBuilder().gain(2.0).build()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert result.records == []
    assert [(r.kernel, r.detail) for r in result.reasons] == [
        ("AffineBuilder.build.<locals>.affine", "self._gain is not set in build before the kernel")
    ]


def test_settings_parsed_from_the_scripts_own_text_in_main_are_made(tmp_path):
    """`json.loads(DEFAULTS_JSON)` and `tomllib.loads(DEFAULTS_TOML)` of text the script holds, parsed in `main()`,
    and a `types.SimpleNamespace(**{...})` record, given to factories: each was a call the harvest refused
    ("calls loads, which may act"). They are functions of their text (or plain values) alone; a parse with a
    hook (`object_hook=`, which would run the script's function) stays refused."""
    (tmp_path / "inline-settings.py").write_text(
        "import json\nimport tomllib\nfrom types import SimpleNamespace\n\nimport warp as wp\n\n"
        "DEFAULTS_JSON = '{\"relax\": {\"omega\": 0.8}}'\nDEFAULTS_TOML = 'coefficient = 0.25'\n\n\n"
        "def make_relax(omega):\n    @wp.kernel\n    def relax(u: wp.array(dtype=float)):\n"
        "        u[wp.tid()] *= omega\n\n    return relax\n\n\ndef make_drag(c):\n    @wp.kernel\n"
        "    def drag(u: wp.array(dtype=float)):\n        u[wp.tid()] -= c\n\n    return drag\n\n\n"
        "def make_band(ns):\n    lo = ns.lo\n\n    @wp.kernel\n    def band(u: wp.array(dtype=float)):\n"
        "        u[wp.tid()] = wp.max(u[wp.tid()], lo)\n\n    return band\n\n\ndef make_hooked(g):\n    @wp.kernel\n"
        "    def hooked(u: wp.array(dtype=float)):\n        u[wp.tid()] *= g\n\n    return hooked\n\n\ndef main():\n"
        "    make_relax(**json.loads(DEFAULTS_JSON)['relax'])\n"
        "    make_drag(tomllib.loads(DEFAULTS_TOML)['coefficient'])\n"
        "    make_band(SimpleNamespace(**{'lo': -1.0}))\n"
        "    make_hooked(json.loads('{\"g\": 2.0}', object_hook=dict)['g'])\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_band.<locals>.band", "lo = -1.0"),
        ("make_drag.<locals>.drag", "c = 0.25"),
        ("make_relax.<locals>.relax", "omega = 0.8"),
    ]
    assert [(r.kernel, "calls loads, which may act" in r.detail) for r in result.reasons] == [
        ("make_hooked.<locals>.hooked", True)
    ]


def test_slots_settings_and_their_replaced_copies_are_made(tmp_path):
    """A `@dataclass(frozen=True, slots=True)` settings object and `dataclasses.replace(CFG, gain=3.0)` of it
    handed to a factory in `main()`: `slots=True` adds `dataclasses`' own `__getstate__` / `__setstate__`, which
    read as methods the script wrote ("CFG is a Settings object, whose methods the harvest does not run"), and
    `replace` was a call the harvest refused. Both only run code `@dataclass` generated."""
    records = _harvest_script(
        tmp_path,
        "slots-cfg.py",
        "import dataclasses\nfrom dataclasses import dataclass\n\nimport warp as wp\n\n\n"
        "@dataclass(frozen=True, slots=True)\nclass Settings:\n    gain: float = 1.0\n\n\nCFG = Settings()\n\n\n"
        "def make_gain(cfg):\n    g = cfg.gain\n\n    @wp.kernel\n    def gain_slots(v: wp.array(dtype=float)):\n"
        "        v[wp.tid()] *= g\n\n    return gain_slots\n\n\ndef main():\n"
        "    make_gain(dataclasses.replace(CFG, gain=3.0))\n\n\nif __name__ == '__main__':\n    main()\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("make_gain.<locals>.gain_slots", "g = 3.0")
    ]


def test_an_argparse_default_converted_by_an_inline_lambda_is_read(tmp_path):
    """`add_argument("--gravity", type=lambda s: tuple(float(v) for v in s.split(",")), default="0,-9.8,0")` in
    `main()`, the option given to a factory as `wp.vec3(*args.gravity)`: argparse converts a string default with
    `type`, and a lambda was a call the harvest refused, so the option was left out ("'_Parsed' object has no
    attribute 'gravity'"). Its body is evaluated on the default, its calls guarded as the harvest's own."""
    records = _harvest_script(
        tmp_path,
        "falling.py",
        "import argparse\n\nimport warp as wp\n\n\ndef make_gravity(g):\n    @wp.kernel\n"
        "    def gravity_step(v: wp.array(dtype=wp.vec3)):\n        v[wp.tid()] += g\n\n    return gravity_step\n\n\n"
        "def main():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument(\n        '--gravity',\n"
        "        type=lambda s: tuple(float(v) for v in s.split(',')),\n"
        "        default='0,-9.8,0',\n    )\n"
        "    args = parser.parse_args()\n    make_gravity(wp.vec3(*args.gravity))\n\n\n"
        "if __name__ == '__main__':\n    main()\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("make_gravity.<locals>.gravity_step", "g = wp.vec3(0.0, -9.800000190734863, 0.0)")
    ]


def test_kernels_made_in_setup_from_case_attributes_are_made_for_each_subclass_case(tmp_path):
    """`self.kernel = make_damp(self.RATE)` in a `unittest` case's `setUp`, a subclass case overriding `RATE`,
    and `cls.k = make_scale(cls.FACTOR)` in `setUpClass`: only test methods read the class's data attributes
    ("self, a parameter of setUp, has no default and no caller"). The runner calls `setUp` / `setUpClass` on
    every case, each subclass with the attributes it overrides."""
    (tmp_path / "test_damping.py").write_text(
        "import unittest\n\nimport warp as wp\n\n\ndef make_damp(rate):\n    @wp.kernel\n"
        "    def damp(v: wp.array(dtype=float)):\n        v[wp.tid()] *= 1.0 - rate\n\n    return damp\n\n\n"
        "def make_scale(factor):\n    @wp.kernel\n    def scale(v: wp.array(dtype=float)):\n"
        "        v[wp.tid()] *= factor\n\n    return scale\n\n\nclass TestDamp(unittest.TestCase):\n    RATE = 0.5\n\n"
        "    def setUp(self):\n        self.kernel = make_damp(self.RATE)\n\n    def test_decays(self):\n"
        "        self.assertIsNotNone(self.kernel)\n\n\nclass TestDampStrong(TestDamp):\n    RATE = 0.9\n\n\n"
        "class TestScale(unittest.TestCase):\n    FACTOR = 3.0\n\n    @classmethod\n    def setUpClass(cls):\n"
        "        cls.k = make_scale(cls.FACTOR)\n\n    def test_scale(self):\n"
        "        self.assertIsNotNone(self.k)\n\n\n"
        "if __name__ == '__main__':\n    unittest.main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert result.reasons == []
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_damp.<locals>.damp", "rate = 0.5"),
        ("make_damp.<locals>.damp", "rate = 0.9"),
        ("make_scale.<locals>.scale", "factor = 3.0"),
    ]


def test_parametrize_marks_on_a_test_class_and_the_module_give_their_values(tmp_path):
    """`@pytest.mark.parametrize("gain", [...])` on a test class and a module-level `pytestmark =
    pytest.mark.parametrize("order", [...])`: pytest applies them to every test they hold, but only a test's
    own decorators were read ("gain, a parameter of test_scales, has no default and no caller")."""
    (tmp_path / "test_marks.py").write_text(
        "import pytest\n\nimport warp as wp\n\npytestmark = [pytest.mark.parametrize('order', [1, 2])]\n\n\n"
        "def make_gain(g, order):\n    @wp.kernel\n    def gain(a: wp.array(dtype=float)):\n"
        "        for _ in range(order):\n            a[wp.tid()] *= g\n\n    return gain\n\n\n"
        "@pytest.mark.parametrize('gain', [0.5])\nclass TestGain:\n    def test_scales(self, gain, order):\n"
        "        assert make_gain(gain, order) is not None\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert result.reasons == []
    assert sorted(r["source"].split("\n\n\n")[1] for r in result.records) == [
        "g = 0.5\norder = 1",
        "g = 0.5\norder = 2",
    ]


def test_factories_reading_star_args_and_forwarded_keywords_are_made(tmp_path):
    """`def make_chain(*funcs)` called as `make_chain(square, half)`, its kernel applying `wp.static(funcs[k])`,
    and `make_core(fast=True, **kw)` inside a wrapper `def make_fast(**kw)` called as `make_fast(gain=2.0)`: a
    factory reading `*args` was refused ("funcs is bound in make_chain after the kernel or in a block") and a
    forwarded `**kw` had no value. They are the tuple of the call's extra positional arguments and the dict
    of its extra keywords; a `**cfg` handed on to a `**kwargs` the kernel reads stays refused."""
    (tmp_path / "wrappers.py").write_text(
        "import warp as wp\n\n\n@wp.func\ndef square(x: float):\n    return x * x\n\n\n@wp.func\n"
        "def half(x: float):\n    return 0.5 * x\n\n\ndef make_chain(*funcs):\n    @wp.kernel\n"
        "    def chain(a: wp.array(dtype=float)):\n        i = wp.tid()\n        x = a[i]\n"
        "        for k in range(wp.static(len(funcs))):\n            x = wp.static(funcs[k])(x)\n        a[i] = x\n\n"
        "    return chain\n\n\ndef make_core(fast=False, gain=1.0):\n    @wp.kernel\n"
        "    def core(a: wp.array(dtype=float)):\n        if wp.static(fast):\n            a[wp.tid()] *= gain\n\n"
        "    return core\n\n\ndef make_fast(**kw):\n    return make_core(fast=True, **kw)\n\n\n"
        "def make_opts(**opts):\n    g = opts['g']\n\n    @wp.kernel\n    def opt_gain(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] *= g\n\n    return opt_gain\n\n\nOPTS = {'g': 3.0}\n\n\ndef main():\n"
        "    make_chain(square, half)\n    make_fast(gain=2.0)\n    make_opts(**OPTS)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[-2]) for r in result.records) == [
        ("make_chain.<locals>.chain", "funcs = (square, half)"),
        ("make_core.<locals>.core", "fast = True\ngain = 2.0"),
    ]
    assert [(r.kernel, "passes **OPTS on to **opts" in r.detail) for r in result.reasons] == [
        ("make_opts.<locals>.opt_gain", True)
    ]


def test_a_command_line_the_script_writes_itself_is_parsed(tmp_path):
    """A notebook's command line written into the script: `parser.parse_args(args=[])` in `main()` of a parser
    built at the top level, and `parse_args(shlex.split(DEFAULT_CMD))`: neither was the script's own command
    line ("parser is a ArgumentParser object", "not the script's own command line"), and options of a top-level
    parser were not looked for in `main()`. The parser's options are replayed on a fresh parser and the
    written command line parsed (a `type=` converting through the guard)."""
    records = _harvest_script(
        tmp_path,
        "nb-cli.py",
        "import argparse\nimport shlex\n\nimport warp as wp\n\nDEFAULT_CMD = '--taps 5 --gain=-1.5'\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--taps', type=int, default=3)\n"
        "parser.add_argument('--gain', type=float, default=1.0)\n\n\ndef make_box(taps, gain):\n    @wp.kernel\n"
        "    def box(a: wp.array(dtype=float)):\n        for _ in range(taps):\n            a[wp.tid()] *= gain\n\n"
        "    return box\n\n\ndef main():\n    defaults = parser.parse_args(args=[])\n"
        "    make_box(defaults.taps, defaults.gain)\n\n\ndef tuned():\n"
        "    args = parser.parse_args(shlex.split(DEFAULT_CMD))\n    make_box(args.taps, args.gain)\n\n\n"
        "if __name__ == '__main__':\n    main()\n    tuned()\n",
    )
    assert sorted(r["source"].split("\n\n\n")[1] for r in records) == ["gain = -1.5\ntaps = 5", "gain = 1.0\ntaps = 3"]


def test_singledispatchmethod_registrations_are_made_for_the_calls_that_dispatch_to_them(tmp_path):
    """`@functools.singledispatchmethod def build(self, arg)` with `@build.register def _(self, arg: int)` and
    one for `float`, called as `b.build(2)` and `b.build(0.5)`: only a top-level `singledispatch`'s
    registrations were read ("_ is called nowhere in the script"). A method's registration dispatches on the
    argument after `self`."""
    records = _harvest_script(
        tmp_path,
        "builders.py",
        "import functools\n\nimport warp as wp\n\n\nclass Builder:\n    @functools.singledispatchmethod\n"
        "    def build(self, arg):\n        raise NotImplementedError(type(arg))\n\n    @build.register\n"
        "    def _(self, arg: int):\n        @wp.kernel\n        def repeat_int(a: wp.array(dtype=float)):\n"
        "            for _ in range(arg):\n                a[wp.tid()] += 1.0\n\n        return repeat_int\n\n"
        "    @build.register(float)\n    def _scale(self, arg):\n        @wp.kernel\n"
        "        def scale_float(a: wp.array(dtype=float)):\n            a[wp.tid()] *= arg\n\n"
        "        return scale_float\n\n\ndef main():\n    b = Builder()\n    b.build(2)\n    b.build(0.5)\n\n\n"
        "if __name__ == '__main__':\n    main()\n",
    )
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records) == [
        ("Builder._.<locals>.repeat_int", "arg = 2"),
        ("Builder._scale.<locals>.scale_float", "arg = 0.5"),
    ]


def test_named_tuple_records_made_and_spread_in_main_are_read(tmp_path):
    """`p = Params._make([0.1, 4])` and `make_step(**p._asdict())` in `main()` of a `collections.namedtuple`
    (and `_replace` of a `typing.NamedTuple`): calls of the record's methods were refused ("calls
    Params._make, which may act"); they are `collections`' own code over plain values."""
    records = _harvest_script(
        tmp_path,
        "records.py",
        "from collections import namedtuple\nfrom typing import NamedTuple\n\nimport warp as wp\n\n"
        "Params = namedtuple('Params', ['dt', 'substeps'])\n\n\nclass Limits(NamedTuple):\n    lo: float = 0.0\n"
        "    hi: float = 1.0\n\n\ndef make_step(dt, substeps):\n    @wp.kernel\n"
        "    def step(x: wp.array(dtype=float)):\n        for _ in range(substeps):\n            x[wp.tid()] += dt\n\n"
        "    return step\n\n\ndef make_clip(lim):\n    lo = lim.lo\n    hi = lim.hi\n\n    @wp.kernel\n"
        "    def clip(x: wp.array(dtype=float)):\n        x[wp.tid()] = wp.clamp(x[wp.tid()], lo, hi)\n\n"
        "    return clip\n\n\ndef main():\n    p = Params._make([0.1, 4])\n    make_step(**p._asdict())\n"
        "    make_clip(Limits()._replace(hi=2.0))\n\n\nif __name__ == '__main__':\n    main()\n",
    )
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records) == [
        ("make_clip.<locals>.clip", "hi = 2.0\nlo = 0.0"),
        ("make_step.<locals>.step", "dt = 0.1\nsubsteps = 4"),
    ]


def test_a_factory_importing_and_defining_its_own_helpers_is_made(tmp_path):
    """`import math` inside a factory and a nested `def g(x)` its comprehension calls before the kernel: the
    import bound nothing the plan knew ("math is bound in make_gauss after the kernel or in a block") and the
    nested function was a call the harvest refused. An import of a module the script's load already imported
    is kept; a nested function that only computes runs with its body guarded. An import of a module not
    loaded stays refused (importing it would run its code)."""
    (tmp_path / "gauss.py").write_text(
        "import warp as wp\n\n\ndef make_gauss(radius, sigma=1.0):\n    import math\n\n    def g(x):\n"
        "        return math.exp(-0.5 * (x / sigma) ** 2)\n\n    raw = [g(k - radius) for k in range(2 * radius + 1)]\n"
        "    weights = [round(w / sum(raw), 4) for w in raw]\n\n    @wp.kernel\n"
        "    def gauss(a: wp.array(dtype=float), out: wp.array(dtype=float)):\n        i = wp.tid()\n"
        "        s = float(0.0)\n        for k in range(wp.static(len(weights))):\n"
        "            s += wp.static(weights[k]) * a[wp.clamp(i + k - radius, 0, a.shape[0] - 1)]\n"
        "        out[i] = s\n\n    return gauss\n\n\ndef make_odd(n):\n"
        "    import no_such_module_of_the_harvest_tests as nsm\n\n    m = nsm.f(n)\n\n    @wp.kernel\n"
        "    def odd(a: wp.array(dtype=float)):\n        a[wp.tid()] *= float(m)\n\n    return odd\n\n\n"
        "def main():\n    make_gauss(1, sigma=0.5)\n    make_odd(3)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records] == [
        ("make_gauss.<locals>.gauss", "radius = 1\nweights = [0.1065, 0.787, 0.1065]")
    ]
    assert [(r.kernel, "imports no_such_module_of_the_harvest_tests" in r.detail) for r in result.reasons] == [
        ("make_odd.<locals>.odd", True)
    ]


def test_a_method_kernel_reading_constructor_attributes_and_its_own_parameters_is_made(tmp_path):
    """`Maker(2.0)` then `maker(1.0)` of a class whose `__call__` makes a kernel from `self.gain` (set in
    `__init__`) and its own `offset`, and `Smoother(0.25).kernel_for(2)` under `functools.lru_cache`: a method
    was planned through `__init__` only when it read nothing but attributes ("self.gain is not set in __call__
    before the kernel"), and calling an instance was no call of `__call__`. The constructor's calls give the
    attributes, the method's calls its own parameters."""
    records = _harvest_script(
        tmp_path,
        "makers.py",
        "import functools\n\nimport warp as wp\n\n\nclass Maker:\n    def __init__(self, gain):\n"
        "        self.gain = gain\n\n    def __call__(self, offset):\n        gain = self.gain\n\n        @wp.kernel\n"
        "        def made(a: wp.array(dtype=float)):\n            a[wp.tid()] = gain * a[wp.tid()] + offset\n\n"
        "        return made\n\n\nclass Smoother:\n    def __init__(self, weight):\n        self.weight = weight\n\n"
        "    @functools.lru_cache(maxsize=None)\n    def kernel_for(self, order):\n        w = self.weight\n\n"
        "        @wp.kernel\n        def smooth(a: wp.array(dtype=float)):\n            for _ in range(order):\n"
        "                a[wp.tid()] *= w\n\n        return smooth\n\n\ndef main():\n    maker = Maker(2.0)\n"
        "    maker(1.0)\n    Smoother(0.25).kernel_for(2)\n\n\nif __name__ == '__main__':\n    main()\n",
    )
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records) == [
        ("Maker.__call__.<locals>.made", "gain = 2.0\noffset = 1.0"),
        ("Smoother.kernel_for.<locals>.smooth", "order = 2\nw = 0.25"),
    ]


def test_attrs_and_pydantic_settings_made_in_main_are_read(tmp_path):
    """A pydantic model made in `main()` and spread by `**solver.model_dump()`, an `attrs.frozen` instance and
    `attrs.evolve` of it, handed to factories: calls of the script's classes were refused ("calls
    SolverSettings, which may act"). A settings class whose methods the library generated (no validator,
    converter, serializer, computed field, or method of the script's) runs none of the script's code; one
    with a validator stays refused."""
    (tmp_path / "settings-libs.py").write_text(
        "import attrs\nimport pydantic\n\nimport warp as wp\n\n\nclass Solver(pydantic.BaseModel):\n"
        "    iterations: int = 4\n    omega: float = 0.7\n\n\nclass Checked(pydantic.BaseModel):\n"
        "    gain: float = 1.0\n\n    @pydantic.field_validator('gain')\n    @classmethod\n"
        "    def positive(cls, v):\n        return abs(v)\n\n\n"
        "@attrs.frozen\nclass Material:\n    density: float = 1000.0\n    viscosity: float = 0.001\n\n\n"
        "def make_jacobi(iterations, omega):\n    @wp.kernel\n    def jacobi(u: wp.array(dtype=float)):\n"
        "        for _ in range(iterations):\n            u[wp.tid()] *= omega\n\n    return jacobi\n\n\n"
        "def make_stokes(mat):\n    nu = mat.viscosity / mat.density\n\n    @wp.kernel\n"
        "    def stokes(v: wp.array(dtype=float)):\n        v[wp.tid()] *= nu\n\n    return stokes\n\n\n"
        "def make_checked(c):\n    g = c.gain\n\n    @wp.kernel\n    def checked(v: wp.array(dtype=float)):\n"
        "        v[wp.tid()] *= g\n\n    return checked\n\n\ndef main():\n"
        "    make_jacobi(**Solver(omega=0.9).model_dump())\n"
        "    make_stokes(attrs.evolve(Material(), viscosity=10.0, density=1250.0))\n"
        "    make_checked(Checked(gain=-2.0))\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_jacobi.<locals>.jacobi", "iterations = 4\nomega = 0.9"),
        ("make_stokes.<locals>.stokes", "nu = 0.008"),
    ]
    assert [(r.kernel, "calls Checked, which may act" in r.detail) for r in result.reasons] == [
        ("make_checked.<locals>.checked", True)
    ]


def test_a_factory_sizing_its_kernel_in_a_while_loop_is_made(tmp_path):
    """`width = 1` then `while width < n: width *= 2` in a factory before the kernel: a `while` was never kept
    ("width is bound inside a block of make_padded"). It runs with a bound on its passes; one that does not
    end in them keeps a reason."""
    (tmp_path / "padded.py").write_text(
        "import warp as wp\n\n\ndef make_padded(n):\n    width = 1\n    while width < n:\n        width *= 2\n\n"
        "    @wp.kernel\n    def pad(a: wp.array(dtype=float)):\n        if wp.tid() >= width:\n"
        "            a[wp.tid()] = 0.0\n\n    return pad\n\n\ndef make_endless(n):\n    while n > 0:\n"
        "        n += 1\n\n"
        "    @wp.kernel\n    def endless(a: wp.array(dtype=float)):\n        a[wp.tid()] = float(n)\n\n"
        "    return endless\n\n\ndef main():\n    make_padded(5)\n    make_endless(1)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records] == [
        ("make_padded.<locals>.pad", "width = 8")
    ]
    assert [(r.kernel, "the loop ran MAX_WHILE_PASSES passes" in r.detail) for r in result.reasons] == [
        ("make_endless.<locals>.endless", True)
    ]


def test_a_siblings_factories_imported_inside_a_function_are_made_for_its_calls(tmp_path):
    """`import zz_ops as so` and `ops = importlib.import_module("zz_ops")` inside `run()`, the sibling's factories
    called there: only top-level imports of modules already loaded were followed, so a factory without
    defaults was "called nowhere in the script". Imports anywhere in the script count (the sibling, no
    module yet, is imported from the folder as the run would), each spelling its calls use."""
    (tmp_path / "a_driver.py").write_text(
        "import importlib\n\n\ndef run():\n    import zz_ops as so\n\n    so.make_clip(-1.0)\n"
        "    ops = importlib.import_module('zz_ops')\n    ops.make_wrap(2.0)\n\n\n"
        "if __name__ == '__main__':\n    run()\n"
    )
    (tmp_path / "zz_ops.py").write_text(
        "import warp as wp\n\n\ndef make_clip(lo):\n    @wp.kernel\n    def clip(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] = wp.max(a[wp.tid()], lo)\n\n    return clip\n\n\ndef make_wrap(period):\n    @wp.kernel\n"
        "    def wrap(a: wp.array(dtype=float)):\n        a[wp.tid()] = wp.mod(a[wp.tid()], period)\n\n"
        "    return wrap\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert result.reasons == []
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_clip.<locals>.clip", "lo = -1.0"),
        ("make_wrap.<locals>.wrap", "period = 2.0"),
    ]


def test_a_classmethod_factory_called_on_subclasses_is_made_for_each(tmp_path):
    """`for force in (Spring, Drag): force.build()` in `main()`, `build` a `@classmethod` of the base reading
    `c = cls.coeff()`, each subclass overriding the classmethod `coeff`: `cls` had no value ("does not pass
    cls") and a call of the script's classmethod was refused. `cls` is what the method is called on, and a
    classmethod that only computes runs guarded, as the script's top-level helpers do."""
    records = _harvest_script(
        tmp_path,
        "forces.py",
        "import warp as wp\n\n\nclass Force:\n    @classmethod\n    def coeff(cls):\n        return 1.0\n\n"
        "    @classmethod\n    def build(cls):\n        c = cls.coeff()\n\n        @wp.kernel\n"
        "        def apply(f: wp.array(dtype=float)):\n            f[wp.tid()] *= c\n\n        return apply\n\n\n"
        "class Spring(Force):\n    @classmethod\n    def coeff(cls):\n        return 40.0\n\n\nclass Drag(Force):\n"
        "    K = 0.25\n\n    @classmethod\n    def coeff(cls):\n        return cls.K * 2.0\n\n\ndef main():\n"
        "    for force in (Spring, Drag):\n        force.build()\n\n\nif __name__ == '__main__':\n    main()\n",
    )
    assert sorted(r["source"].split("\n\n\n")[1] for r in records) == ["c = 0.5", "c = 40.0"]


def test_settings_made_by_a_dataclass_from_dict_classmethod_are_read(tmp_path):
    """`Cfg.from_dict(RAW)` in `main()`, a `@classmethod` keeping the keys named by `dataclasses.fields(cls)`
    and returning `cls(**...)`: a dataclass with any classmethod read as one with the script's methods, and
    `dataclasses.fields` was a call the harvest refused ("calls Cfg.from_dict, which may act"). A classmethod
    runs only where it is called (here guarded, as the script's helpers), not when the settings are made."""
    records = _harvest_script(
        tmp_path,
        "from-dict.py",
        "import dataclasses\nfrom dataclasses import dataclass\n\nimport warp as wp\n\n"
        "RAW = {'dt': 0.02, 'comment': 'from the lab notebook'}\n\n\n@dataclass\nclass Cfg:\n    dt: float = 0.01\n\n"
        "    @classmethod\n    def from_dict(cls, d):\n        names = {f.name for f in dataclasses.fields(cls)}\n"
        "        return cls(**{k: v for k, v in d.items() if k in names})\n\n\ndef make_fall(cfg):\n    dt = cfg.dt\n\n"
        "    @wp.kernel\n    def fall(y: wp.array(dtype=float)):\n        y[wp.tid()] -= 9.8 * dt\n\n"
        "    return fall\n\n\n"
        "def main():\n    make_fall(Cfg.from_dict(RAW))\n\n\nif __name__ == '__main__':\n    main()\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("make_fall.<locals>.fall", "dt = 0.02")
    ]


def test_a_factory_taking_its_options_out_of_its_own_kwargs_is_made(tmp_path):
    """`def make_affine(**opts)` taking `gain = opts.pop("gain", 1.0)` and `bias = opts.pop("bias", 0.0)` out of
    its options, called as `make_affine(gain=2.0, bias=-1.0)`: `pop` changes a dict, so the harvest refused it
    ("calls dict.pop, which may act"). A `**kwargs` dict is the call's own: the made factory gets a copy it
    may empty; `pop` on any other dict stays refused."""
    (tmp_path / "opts.py").write_text(
        "import warp as wp\n\nSHARED = {'gain': 3.0}\n\n\ndef make_affine(**opts):\n    gain = opts.pop('gain', 1.0)\n"
        "    bias = opts.pop('bias', 0.0)\n    if opts:\n        raise TypeError(sorted(opts))\n\n    @wp.kernel\n"
        "    def affine(a: wp.array(dtype=float)):\n        a[wp.tid()] = gain * a[wp.tid()] + bias\n\n"
        "    return affine\n\n\ndef make_shared(table):\n    g = table.pop('gain')\n\n    @wp.kernel\n"
        "    def shared(a: wp.array(dtype=float)):\n        a[wp.tid()] *= g\n\n    return shared\n\n\ndef main():\n"
        "    make_affine(gain=2.0, bias=-1.0)\n    make_shared(SHARED)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records] == [
        ("make_affine.<locals>.affine", "bias = -1.0\ngain = 2.0")
    ]
    assert [(r.kernel, "calls dict.pop, which may act" in r.detail) for r in result.reasons] == [
        ("make_shared.<locals>.shared", True)
    ]


def test_a_sibling_imported_inside_a_function_that_exits_at_its_top_level_costs_the_importer_nothing(tmp_path):
    """A sibling imported only inside the importer's `run()` whose top level parses its command line and ends
    with `sys.exit(0)`: importing it for the importer's calls ran it under the worker's arguments, and its
    `SystemExit` became the importer's reason. It is imported as its own run would be (its path alone in
    `sys.argv`), and its exit stays its own harvest's business."""
    (tmp_path / "a_driver.py").write_text(
        "def run():\n    import zz_exits\n\n    zz_exits.make_scale(3.0)\n\n\nif __name__ == '__main__':\n    run()\n"
    )
    (tmp_path / "zz_exits.py").write_text(
        "import argparse\nimport sys\n\nimport warp as wp\n\n\n@wp.kernel\ndef own(a: wp.array(dtype=float)):\n"
        "    a[wp.tid()] = 1.0\n\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--n', type=int, default=2)\n"
        "args = parser.parse_args()\nsys.exit(0)\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert [r["qualname"] for r in result.records] == ["own"]
    assert sorted({r.file for r in result.reasons}) == ["zz_exits.py"]


def test_hand_made_namespaces_typed_dicts_and_the_first_item_of_a_list_are_read(tmp_path):
    """Settings written by hand in `main()` as `argparse.Namespace(gain=2.0)` and as a `TypedDict` call
    (`Cfg(k=4.0)`), and `next(iter(cfg["omegas"]))`, given to factories: each was a call the harvest refused
    ("calls Namespace, which may act", "calls Cfg ...", "calls iter ..."). They make or read plain records and
    containers; `next` of a generator (which would run its body) stays refused."""
    (tmp_path / "records.py").write_text(
        "import argparse\nfrom typing import TypedDict\n\nimport warp as wp\n\nCONFIG = {'omegas': [0.8, 1.2]}\n\n\n"
        "class Cfg(TypedDict):\n    k: float\n\n\ndef make_gain(g):\n    @wp.kernel\n"
        "    def gain(a: wp.array(dtype=float)):\n        a[wp.tid()] *= g\n\n    return gain\n\n\n"
        "def make_spring(k):\n    @wp.kernel\n    def spring(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] *= -k\n\n    return spring\n\n\ndef make_omega(omega):\n    @wp.kernel\n"
        "    def relax(a: wp.array(dtype=float)):\n        a[wp.tid()] *= omega\n\n    return relax\n\n\n"
        "def make_gen(x):\n    @wp.kernel\n    def gen(a: wp.array(dtype=float)):\n        a[wp.tid()] = x\n\n"
        "    return gen\n\n\ndef values():\n    yield 1.0\n\n\ndef main():\n"
        "    args = argparse.Namespace(gain=2.0)\n    make_gain(args.gain)\n    make_spring(**Cfg(k=4.0))\n"
        "    make_omega(next(iter(CONFIG['omegas'])))\n    make_gen(next(values()))\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_gain.<locals>.gain", "g = 2.0"),
        ("make_omega.<locals>.relax", "omega = 0.8"),
        ("make_spring.<locals>.spring", "k = 4.0"),
    ]
    assert [r.kernel for r in result.reasons] == ["make_gen.<locals>.gen"]


def test_a_factory_tabulating_a_lambda_it_is_given_is_made(tmp_path):
    """`make_lut(lambda t: t * t, 5)` in `main()`, the factory computing `[fn(k / 4) for k in range(n)]`: the
    lambda was a function the guard did not know ("calls <lambda>, which may act"). A lambda the harvest
    compiles has its own calls guarded, so calling it is allowed; one whose body acts (`print`) still stops
    the kernel."""
    (tmp_path / "lut.py").write_text(
        "import warp as wp\n\n\ndef make_lut(fn, n):\n    table = [fn(k / (n - 1)) for k in range(n)]\n\n"
        "    @wp.kernel\n    def lut(a: wp.array(dtype=float)):\n        a[wp.tid()] = wp.static(table[1])\n\n"
        "    return lut\n\n\ndef make_loud(fn):\n    v = fn(2.0)\n\n    @wp.kernel\n"
        "    def loud(a: wp.array(dtype=float)):\n        a[wp.tid()] = v\n\n    return loud\n\n\ndef main():\n"
        "    make_lut(lambda t: t * t, 5)\n    make_loud(lambda t: print(t) or t)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records] == [
        ("make_lut.<locals>.lut", "table = [0.0, 0.0625, 0.25, 0.5625, 1.0]")
    ]
    assert [(r.kernel, "calls print, which may act" in r.detail) for r in result.reasons] == [
        ("make_loud.<locals>.loud", True)
    ]


def test_a_factory_argument_read_from_attributes_init_set_before_it_is_made(tmp_path):
    """Warp's example layout: `__init__` computes `self.sim_dt = self.frame_dt / self.sim_substeps` from its
    parameters and hands it to a factory (`make_drag(drag, self.sim_dt)`), or loops over `self.orders`; `self`
    had no value ("self, a parameter of __init__, has no default and no caller"). It is the attributes the
    plain assignments before the call set (an allocation among them left out); where a method call on `self`
    comes first, which may set them, the kernel keeps its reason."""
    (tmp_path / "example.py").write_text(
        "import warp as wp\n\n\ndef make_drag(coeff, dt):\n    @wp.kernel\n    def drag(v: wp.array(dtype=float)):\n"
        "        v[wp.tid()] *= 1.0 - coeff * dt\n\n    return drag\n\n\ndef make_power(p):\n    @wp.kernel\n"
        "    def power(v: wp.array(dtype=float)):\n        v[wp.tid()] = wp.pow(v[wp.tid()], float(p))\n\n"
        "    return power\n\n\ndef make_late(g):\n    @wp.kernel\n    def late(v: wp.array(dtype=float)):\n"
        "        v[wp.tid()] *= g\n\n    return late\n\n\nclass Example:\n"
        "    def __init__(self, fps=50, substeps=4, drag=0.5, orders=(2,)):\n        self.frame_dt = 1.0 / fps\n"
        "        self.sim_substeps = substeps\n        self.sim_dt = self.frame_dt / self.sim_substeps\n"
        "        self.v = wp.zeros(4, dtype=float)\n        self.orders = tuple(orders)\n"
        "        self.drag = make_drag(drag, self.sim_dt)\n"
        "        self.stages = {p: make_power(p) for p in self.orders}\n        self._setup()\n"
        "        self.late = make_late(self.sim_dt)\n\n    def _setup(self):\n        self.sim_dt = 2.0\n\n\n"
        "if __name__ == '__main__':\n    Example(drag=0.25, orders=(2, 3))\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_drag.<locals>.drag", "coeff = 0.25\ndt = 0.005"),
        ("make_power.<locals>.power", "p = 2"),
        ("make_power.<locals>.power", "p = 3"),
    ]
    why = "self is set in __init__ other than by plain assignments"
    assert [(r.kernel, why in r.detail) for r in result.reasons] == [("make_late.<locals>.late", True)]


def test_plain_settings_classes_made_in_main_are_read(tmp_path):
    """`cfg = SolverCfg(dt=0.02)` and `sim = Sim()` (whose `__init__` holds a `SolverCfg()`) in `main()`, their
    attributes given to factories: a class the script wrote was a call the harvest refused ("calls Sim, which may
    act"). A top-level class whose `__init__` only computes and sets attributes of `self` is made as a namespace
    of its plain class attributes and what `__init__` sets; one whose `__init__` calls a method keeps its
    reason."""
    (tmp_path / "plain-cfg.py").write_text(
        "import warp as wp\n\n\nclass SolverCfg:\n    iters = 3\n\n    def __init__(self, dt=0.01):\n"
        "        self.dt = dt\n        self.half = 0.5 * dt\n\n\nclass Sim:\n    def __init__(self):\n"
        "        self.cfg = SolverCfg()\n\n\nclass Busy:\n    def __init__(self):\n        self.dt = 0.5\n"
        "        self.reset()\n\n    def reset(self):\n        self.dt = 0.0\n\n\ndef make_step(dt, iters):\n"
        "    @wp.kernel\n    def step(a: wp.array(dtype=float)):\n        for _ in range(iters):\n"
        "            a[wp.tid()] += dt\n\n    return step\n\n\ndef make_half(h):\n    @wp.kernel\n"
        "    def half(a: wp.array(dtype=float)):\n        a[wp.tid()] *= h\n\n    return half\n\n\n"
        "def make_busy(dt):\n    @wp.kernel\n    def busy(a: wp.array(dtype=float)):\n        a[wp.tid()] += dt\n\n"
        "    return busy\n\n\ndef main():\n    cfg = SolverCfg(dt=0.02)\n    make_step(cfg.dt, cfg.iters)\n"
        "    sim = Sim()\n    make_half(sim.cfg.half)\n    make_busy(Busy().dt)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_half.<locals>.half", "h = 0.005"),
        ("make_step.<locals>.step", "dt = 0.02\niters = 3"),
    ]
    assert [(r.kernel, "calls Busy, which may act" in r.detail) for r in result.reasons] == [
        ("make_busy.<locals>.busy", True)
    ]


def test_settings_edited_in_place_in_main_before_the_factory_call_are_read_edited(tmp_path):
    """`opts = DEFAULTS.copy()` then `opts.setdefault("iters", 2)`, `opts["w"] = 0.25`, and `sim.cfg.dt = 0.02`
    on a settings object, in `main()` before the factory call: the harvest read the value as assigned
    ("does not pass iters", or the defaults where the run uses the edited values). The edits in the same block
    run on a copy (the module's `DEFAULTS` stays as it was for a later call); an edit calling the script's own
    function is not run."""
    (tmp_path / "edits.py").write_text(
        "import warp as wp\n\nDEFAULTS = {'w': 0.5}\n\n\nclass Cfg:\n    def __init__(self):\n"
        "        self.dt = 0.01\n\n\n"
        "class Sim:\n    def __init__(self):\n        self.cfg = Cfg()\n\n\ndef make_smooth(w, iters):\n"
        "    @wp.kernel\n    def smooth(a: wp.array(dtype=float)):\n        for _ in range(iters):\n"
        "            a[wp.tid()] *= w\n\n    return smooth\n\n\ndef make_scale(w):\n    @wp.kernel\n"
        "    def scale(a: wp.array(dtype=float)):\n        a[wp.tid()] *= w\n\n    return scale\n\n\n"
        "def make_step(dt):\n    @wp.kernel\n    def step(a: wp.array(dtype=float)):\n        a[wp.tid()] += dt\n\n"
        "    return step\n\n\ndef pick():\n    print('picking')\n    return 9.0\n\n\ndef make_picked(w):\n"
        "    @wp.kernel\n    def picked(a: wp.array(dtype=float)):\n        a[wp.tid()] *= w\n\n    return picked\n\n\n"
        "def main():\n    opts = DEFAULTS.copy()\n    opts.setdefault('iters', 2)\n    opts['w'] = 0.25\n"
        "    make_smooth(**opts)\n    make_scale(DEFAULTS['w'])\n    sim = Sim()\n    sim.cfg.dt = 0.02\n"
        "    make_step(sim.cfg.dt)\n    other = dict(DEFAULTS)\n    other['w'] = pick()\n"
        "    make_picked(other['w'])\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_picked.<locals>.picked", "w = 0.5"),
        ("make_scale.<locals>.scale", "w = 0.5"),
        ("make_smooth.<locals>.smooth", "iters = 2\nw = 0.25"),
        ("make_step.<locals>.step", "dt = 0.02"),
    ]


def test_a_fixture_method_of_a_test_class_reading_its_class_attribute_is_made(tmp_path):
    """`@pytest.fixture def gain_kernel(self): return make_gain(self.GAIN)` in a test class (and a subclass
    overriding `GAIN`): `self` of a fixture method had no value ("self, a parameter of gain_kernel, has no
    default and no caller"). pytest calls it on an instance of each collected class, as it calls test methods,
    so it reads the class's data attributes as a test method does."""
    records = _harvest_script(
        tmp_path,
        "test_fixture_method.py",
        "import pytest\nimport warp as wp\n\n\ndef make_gain(g):\n    @wp.kernel\n"
        "    def gain(a: wp.array(dtype=float)):\n        a[wp.tid()] *= g\n\n    return gain\n\n\nclass TestOps:\n"
        "    GAIN = 3.0\n\n    @pytest.fixture\n    def gain_kernel(self):\n        return make_gain(self.GAIN)\n\n"
        "    def test_gain(self, gain_kernel):\n        assert gain_kernel is not None\n\n\n"
        "class TestStrong(TestOps):\n    GAIN = 5.0\n",
    )
    assert sorted(r["source"].split("\n\n\n")[1] for r in records) == ["g = 3.0", "g = 5.0"]


def test_factories_a_package_re_exports_or_a_script_imports_as_a_submodule_are_made_for_its_calls(tmp_path):
    """`import common` then `common.make_damp(0.9)` in `main()`, where `common/__init__.py` re-exports
    `from .builders import make_damp`, and `from common import builders as B` then `B.make_clamp(-1.0, 1.0)`:
    the factories' module is `common.builders`, which the script never names, so the harvest saw no call of
    them ("make_damp is called nowhere in the script with values the harvest can read"). A re-exported function
    is its own module's, and a submodule imported by name is read as `import common.builders as B`."""
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "__init__.py").write_text("from .builders import make_damp\n\n__all__ = ['make_damp']\n")
    (tmp_path / "common" / "builders.py").write_text(
        "import warp as wp\n\n\ndef make_damp(c):\n    @wp.kernel\n    def damp(v: wp.array(dtype=float)):\n"
        "        v[wp.tid()] *= c\n\n    return damp\n\n\ndef make_clamp(lo, hi):\n    @wp.kernel\n"
        "    def clamp(v: wp.array(dtype=float)):\n        v[wp.tid()] = wp.clamp(v[wp.tid()], lo, hi)\n\n"
        "    return clamp\n"
    )
    (tmp_path / "use_pkg.py").write_text(
        "import os\nimport sys\n\nsys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\n\n"
        "import common  # noqa: E402\nfrom common import builders as B  # noqa: E402\n\n\ndef main():\n"
        "    common.make_damp(0.9)\n    B.make_clamp(-1.0, 1.0)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_clamp.<locals>.clamp", "hi = 1.0\nlo = -1.0"),
        ("make_damp.<locals>.damp", "c = 0.9"),
    ]


def test_a_partial_of_a_factory_called_later_in_main_gets_both_calls_arguments(tmp_path):
    """`builders = {"shift": functools.partial(make_shift, offset=2.0)}` then `builders["shift"](1.0)`, and
    `half = partial(make_scale, 0.5)` then `half(bias=1.0)`, in `main()`: the partial alone does not pass `x`
    ("make_shift(...) at line ...: does not pass x"). Each later call of the partial is the factory's call with
    the partial's arguments first."""
    records = _harvest_script(
        tmp_path,
        "partials.py",
        "import functools\nfrom functools import partial\n\nimport warp as wp\n\n\ndef make_shift(x, offset=0.0):\n"
        "    @wp.kernel\n    def shift(a: wp.array(dtype=float)):\n        a[wp.tid()] += x + offset\n\n"
        "    return shift\n\n\ndef make_scale(s, bias):\n    @wp.kernel\n    def scale(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] = s * a[wp.tid()] + bias\n\n    return scale\n\n\ndef main():\n"
        "    builders = {'shift': functools.partial(make_shift, offset=2.0)}\n    builders['shift'](1.0)\n"
        "    half = partial(make_scale, 0.5)\n    half(bias=1.0)\n\n\nif __name__ == '__main__':\n    main()\n",
    )
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records) == [
        ("make_scale.<locals>.scale", "bias = 1.0\ns = 0.5"),
        ("make_shift.<locals>.shift", "offset = 2.0\nx = 1.0"),
    ]


def test_methods_reached_through_partialmethod_attributes_are_made_for_their_calls(tmp_path):
    """`relu = functools.partialmethod(_make, 0.0)` in a class body and `Activations().relu()` in `main()`, and
    `double = partialmethod(_scaled, 2.0)` of a method also reading `self.base` (`Scalers(1.5).double()`):
    nothing called `_make` or `_scaled` by name ("_make is called nowhere in the script with values the
    harvest can read"). A call of the attribute is the method's call with the partialmethod's arguments first."""
    records = _harvest_script(
        tmp_path,
        "partialmethods.py",
        "import functools\nfrom functools import partialmethod\n\nimport warp as wp\n\n\nclass Activations:\n"
        "    def _make(self, slope):\n        @wp.kernel\n        def act(a: wp.array(dtype=float)):\n"
        "            a[wp.tid()] = wp.where(a[wp.tid()] > 0.0, a[wp.tid()], slope * a[wp.tid()])\n\n"
        "        return act\n\n    relu = functools.partialmethod(_make, 0.0)\n"
        "    leaky = functools.partialmethod(_make, slope=0.1)\n\n\nclass Scalers:\n    def __init__(self, base):\n"
        "        self.base = base\n\n    def _scaled(self, factor):\n        s = self.base * factor\n\n"
        "        @wp.kernel\n        def scaled(a: wp.array(dtype=float)):\n            a[wp.tid()] *= s\n\n"
        "        return scaled\n\n    double = partialmethod(_scaled, 2.0)\n\n\ndef main():\n    acts = Activations()\n"
        "    acts.relu()\n    acts.leaky()\n    Scalers(1.5).double()\n\n\nif __name__ == '__main__':\n    main()\n",
    )
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records) == [
        ("Activations._make.<locals>.act", "slope = 0.0"),
        ("Activations._make.<locals>.act", "slope = 0.1"),
        ("Scalers._scaled.<locals>.scaled", "s = 3.0"),
    ]


def test_a_struct_made_in_main_and_filled_field_by_field_is_read(tmp_path):
    """`p = SimParams()` then `p.dt = 0.01`, `p.damping = 0.25` in `main()`, `p` given to a factory reading
    `wp.static(p.dt)`: making a struct instance was a call the harvest refused ("calls SimParams, which may
    act"). A struct of value fields allocates nothing, so it is made and the field stores run on it; one holding
    an array (whose instance may hold an allocation) stays refused."""
    (tmp_path / "struct-main.py").write_text(
        "import warp as wp\n\n\n@wp.struct\nclass SimParams:\n    dt: float\n    damping: float\n\n\n@wp.struct\n"
        "class Holder:\n    scale: float\n    data: wp.array(dtype=float)\n\n\ndef make_advance(p):\n    @wp.kernel\n"
        "    def advance(x: wp.array(dtype=float)):\n        x[wp.tid()] *= wp.static(p.dt * (1.0 - p.damping))\n\n"
        "    return advance\n\n\ndef make_held(h):\n    @wp.kernel\n    def held(x: wp.array(dtype=float)):\n"
        "        x[wp.tid()] *= wp.static(h.scale)\n\n    return held\n\n\ndef main():\n    p = SimParams()\n"
        "    p.dt = 0.01\n    p.damping = 0.25\n    make_advance(p)\n    h = Holder()\n    h.scale = 2.0\n"
        "    make_held(h)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert [r["qualname"] for r in result.records] == ["make_advance.<locals>.advance"]
    assert result.records[0]["source"].split("\n\n\n")[1] == "damping = 0.25\ndt = 0.01"  # the filled fields
    assert [(r.kernel, "calls Holder, which may act" in r.detail) for r in result.reasons] == [
        ("make_held.<locals>.held", True)
    ]


def test_a_config_parser_filled_from_the_scripts_text_in_main_is_read(tmp_path):
    """`ini = configparser.ConfigParser()`, `ini.read_string(DEFAULTS_INI)` and `ini.getfloat("clamp", "lo")` in
    `main()` (and `read_dict` then `ini["gain"].getfloat("g")`): the parser was a call the harvest refused
    ("calls ConfigParser, which may act"), and filling it an in-place change it did not follow. A standard
    parser is made, filled on the harvest's copy and read; a parser class of the script's stays refused."""
    (tmp_path / "ini-settings.py").write_text(
        "import configparser\n\nimport warp as wp\n\nDEFAULTS_INI = '[clamp]\\nlo = -0.5\\nhi = 0.5\\n'\n\n\n"
        "class MyParser(configparser.ConfigParser):\n    def optionxform(self, name):\n"
        "        return name.upper()\n\n\n"
        "def make_clamp(lo, hi):\n    @wp.kernel\n    def clamp(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] = wp.clamp(a[wp.tid()], lo, hi)\n\n    return clamp\n\n\ndef make_gain(g):\n"
        "    @wp.kernel\n"
        "    def gain(a: wp.array(dtype=float)):\n        a[wp.tid()] *= g\n\n    return gain\n\n\ndef make_mine(m):\n"
        "    @wp.kernel\n    def mine(a: wp.array(dtype=float)):\n        a[wp.tid()] *= m\n\n    return mine\n\n\n"
        "def main():\n    ini = configparser.ConfigParser()\n    ini.read_string(DEFAULTS_INI)\n"
        "    make_clamp(ini.getfloat('clamp', 'lo'), ini.getfloat('clamp', 'hi'))\n"
        "    other = configparser.ConfigParser()\n    other.read_dict({'gain': {'g': '2.5'}})\n"
        "    make_gain(other['gain'].getfloat('g'))\n    mine = MyParser()\n    mine.read_string(DEFAULTS_INI)\n"
        "    make_mine(mine.getfloat('clamp', 'LO'))\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_clamp.<locals>.clamp", "hi = 0.5\nlo = -0.5"),
        ("make_gain.<locals>.gain", "g = 2.5"),
    ]
    assert [(r.kernel, "calls MyParser, which may act" in r.detail) for r in result.reasons] == [
        ("make_mine.<locals>.mine", True)
    ]


def test_a_dataclass_method_kernel_reading_its_fields_is_made_per_construction(tmp_path):
    """`@dataclass class Band: lo: float; hi: float = 1.0` whose method makes a kernel from `self.lo, self.hi`,
    called as `band.kernel()` over `BANDS = [Band(0.0, 0.5), Band(0.5)]`: the class writes no `__init__`, so the
    harvest had none to plan through ("self.hi is not set in kernel before the kernel"). The one `@dataclass`
    generates is planned like a written one, with the constructor calls' values; a field with a
    `default_factory` (which a generated `__init__` would call) leaves the kernel refused."""
    (tmp_path / "bands.py").write_text(
        "from dataclasses import dataclass, field\n\nimport warp as wp\n\n\n@dataclass\nclass Band:\n    lo: float\n"
        "    hi: float = 1.0\n\n    def kernel(self):\n        lo, hi = self.lo, self.hi\n\n        @wp.kernel\n"
        "        def band(a: wp.array(dtype=float), m: wp.array(dtype=int)):\n"
        "            if a[wp.tid()] >= lo and a[wp.tid()] < hi:\n                m[wp.tid()] = 1\n\n"
        "        return band\n\n\n"
        "@dataclass\nclass Taps:\n    w: list = field(default_factory=lambda: [0.5, 0.5])\n\n    def kernel(self):\n"
        "        w0 = self.w[0]\n\n        @wp.kernel\n        def taps(a: wp.array(dtype=float)):\n"
        "            a[wp.tid()] *= w0\n\n        return taps\n\n\nBANDS = [Band(0.0, 0.5), Band(0.5)]\n\n\n"
        "def main():\n    for band in BANDS:\n        band.kernel()\n    Taps().kernel()\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("Band.kernel.<locals>.band", "hi = 0.5\nlo = 0.0"),
        ("Band.kernel.<locals>.band", "hi = 1.0\nlo = 0.5"),
    ]
    assert [r.kernel for r in result.reasons] == ["Taps.kernel.<locals>.taps"]


def test_a_class_whose_init_defines_a_kernel_is_not_made_as_plain_settings(tmp_path):
    """`h = Holder(2.0)` in `main()` where `Holder.__init__` sets `self.k = k` and also defines a kernel, then
    `make_scale(h.k)`: making `Holder` as plain settings ran its `__init__` as the harvest's own function, and
    the kernel it defines came out under that function's name (`__wci_helper__.<locals>.__init__.<locals>...`).
    Such a class is no settings class; its kernel keeps its own name, planned through `__init__`."""
    (tmp_path / "holder.py").write_text(
        "import warp as wp\n\n\nclass Holder:\n    def __init__(self, k):\n        self.k = k\n\n        @wp.kernel\n"
        "        def inner(a: wp.array(dtype=float)):\n            a[wp.tid()] *= k\n\n"
        "        self.kernel = inner\n\n\n"
        "def make_scale(s):\n    @wp.kernel\n    def scale(a: wp.array(dtype=float)):\n        a[wp.tid()] *= s\n\n"
        "    return scale\n\n\ndef main():\n    h = Holder(2.0)\n    make_scale(h.k)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records] == [
        ("Holder.__init__.<locals>.inner", "k = 2.0")
    ]
    assert [(r.kernel, "calls Holder, which may act" in r.detail) for r in result.reasons] == [
        ("make_scale.<locals>.scale", True)
    ]


def test_a_factory_read_for_a_launchs_types_keeps_its_kernels_own_name(tmp_path):
    """`k, dt = make_axpy("f64")` in `main()`, then `wp.launch(k, ..., inputs=[dt(2.0), x, y])`: reading the
    launch's values ran `make_axpy` as the harvest's own guarded function, so its kernel came out as
    `__wci_helper__.<locals>.make_axpy.<locals>.axpy` and, having the same text, took the place of the one
    the factory's plan makes. A function defining a kernel is not run so; the record has the factory's name."""
    records = _harvest_script(
        tmp_path,
        "pair.py",
        "import warp as wp\n\n\ndef make_axpy(precision='f32'):\n"
        "    dtype = {'f32': wp.float32, 'f64': wp.float64}[precision]\n\n    @wp.kernel\n"
        "    def axpy(a: dtype, x: wp.array(dtype=dtype), y: wp.array(dtype=dtype)):\n"
        "        y[wp.tid()] = a * x[wp.tid()] + y[wp.tid()]\n\n    return axpy, dtype\n\n\ndef main():\n"
        "    k, dt = make_axpy('f64')\n    x = wp.full(4, 1.0, dtype=dt)\n    y = wp.zeros(4, dtype=dt)\n"
        "    wp.launch(k, dim=4, inputs=[dt(2.0), x, y])\n\n\nif __name__ == '__main__':\n    main()\n",
    )
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in records] == [
        ("make_axpy.<locals>.axpy", "dtype = wp.float64")
    ]


def test_statistics_pairwise_string_partition_yaml_text_and_vars_of_settings_in_main_are_read(tmp_path):
    """Factory arguments computed in `main()` with `statistics.mean(SAMPLES)`, `itertools.pairwise(EDGES)`,
    `"3x4".partition("x")`, `yaml.safe_load(TEXT)` and `**vars(cfg)` of a dataclass made there: each was a call
    the guard refused ("calls mean, which may act", "calls pairwise ...", "calls str.partition ...", "calls
    safe_load ...", "calls vars ..."). They compute on values in hand; `yaml.load` with a loader that may build
    the script's objects stays refused."""
    (tmp_path / "computed.py").write_text(
        "import dataclasses\nimport itertools\nimport statistics\n\nimport warp as wp\nimport yaml\n\n"
        "SAMPLES = [1.0, 2.0, 6.0]\nEDGES = [0.0, 0.5, 1.0]\nTEXT = 'relax: {omega: 0.7}'\n\n\n"
        "@dataclasses.dataclass\nclass Damp:\n    c: float = 0.1\n\n\n"
        "def make_scale(s):\n    @wp.kernel\n    def scale(a: wp.array(dtype=float)):\n        a[wp.tid()] *= s\n\n"
        "    return scale\n\n\ndef make_band(lo, hi):\n    @wp.kernel\n    def band(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] = wp.clamp(a[wp.tid()], lo, hi)\n\n    return band\n\n\ndef make_rows(n):\n"
        "    @wp.kernel\n    def rows(a: wp.array(dtype=int)):\n        a[wp.tid()] = n\n\n    return rows\n\n\n"
        "def make_relax(omega):\n    @wp.kernel\n    def relax(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] *= omega\n\n    return relax\n\n\ndef make_damp(c):\n    @wp.kernel\n"
        "    def damp(a: wp.array(dtype=float)):\n        a[wp.tid()] *= 1.0 - c\n\n    return damp\n\n\n"
        "def make_unsafe(x):\n    @wp.kernel\n    def unsafe(a: wp.array(dtype=float)):\n        a[wp.tid()] = x\n\n"
        "    return unsafe\n\n\ndef main():\n    make_scale(statistics.mean(SAMPLES))\n"
        "    for lo, hi in itertools.pairwise(EDGES):\n        make_band(lo, hi)\n"
        "    rows, _, cols = '3x4'.partition('x')\n    make_rows(int(rows))\n"
        "    cfg = yaml.safe_load(TEXT)\n    make_relax(cfg['relax']['omega'])\n"
        "    make_damp(**vars(Damp(c=0.25)))\n    loaded = yaml.load(TEXT, Loader=yaml.Loader)\n"
        "    make_unsafe(loaded['relax']['omega'])\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_band.<locals>.band", "hi = 0.5\nlo = 0.0"),
        ("make_band.<locals>.band", "hi = 1.0\nlo = 0.5"),
        ("make_damp.<locals>.damp", "c = 0.25"),
        ("make_relax.<locals>.relax", "omega = 0.7"),
        ("make_rows.<locals>.rows", "n = 3"),
        ("make_scale.<locals>.scale", "s = 3.0"),
    ]
    assert [r.kernel for r in result.reasons] == ["make_unsafe.<locals>.unsafe"]


def test_enum_members_unpacked_zips_and_lambda_defaults_give_factory_arguments(tmp_path):
    """`for mode in Blend: make_blend(mode.value)` over an `Enum` class ("loops over a EnumType"),
    `los, his = zip(*BOUNDS)` ("cannot unpack zip into (los, his)") and a builder table's
    `lambda p=2: make_pow(p)` ("p has no value the harvest can read"), in `main()`: an Enum class's members
    are what `EnumMeta` iterates, a zip unpacked is its items, and a lambda's default is what a call without
    the argument gets. A lambda parameter without a default stays unresolved."""
    (tmp_path / "members.py").write_text(
        "import enum\n\nimport warp as wp\n\nBOUNDS = [(-1.0, 1.0), (-2.0, 0.5)]\n\n\nclass Blend(enum.Enum):\n"
        "    SOFT = 0.25\n    HARD = 0.75\n\n\ndef make_blend(w):\n    @wp.kernel\n"
        "    def blend(a: wp.array(dtype=float)):\n        a[wp.tid()] *= w\n\n    return blend\n\n\n"
        "def make_clip(lo, hi):\n    @wp.kernel\n    def clip(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] = wp.clamp(a[wp.tid()], lo, hi)\n\n    return clip\n\n\ndef make_pow(p):\n"
        "    @wp.kernel\n    def power(a: wp.array(dtype=float)):\n        for _ in range(p):\n"
        "            a[wp.tid()] *= 2.0\n\n    return power\n\n\ndef make_bare(x):\n    @wp.kernel\n"
        "    def bare(a: wp.array(dtype=float)):\n        a[wp.tid()] = x\n\n    return bare\n\n\n"
        "BUILDERS = {'square': lambda p=2: make_pow(p), 'bare': lambda x: make_bare(x)}\n\n\n"
        "def main():\n    for mode in Blend:\n        make_blend(mode.value)\n    los, his = zip(*BOUNDS)\n"
        "    make_clip(min(los), max(his))\n    for name in BUILDERS:\n        BUILDERS[name]()\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_blend.<locals>.blend", "w = 0.25"),
        ("make_blend.<locals>.blend", "w = 0.75"),
        ("make_clip.<locals>.clip", "hi = 1.0\nlo = -2.0"),
        ("make_pow.<locals>.power", "p = 2"),
    ]
    assert [r.kernel for r in result.reasons] == ["make_bare.<locals>.bare"]


def test_a_kernel_made_in_async_setup_from_a_class_attribute_is_made(tmp_path):
    """`unittest.IsolatedAsyncioTestCase` with `async def asyncSetUp(self): self.kernel = make_gain(self.GAIN)`:
    the parameters of an `async def` had no value ("self has no value the harvest can read"); they are read as a
    `def`'s are, so `self` of `asyncSetUp` is the case's data attributes as for `setUp`."""
    records = _harvest_script(
        tmp_path,
        "test_async_setup.py",
        "import unittest\n\nimport warp as wp\n\n\ndef make_gain(g):\n    @wp.kernel\n"
        "    def gain(a: wp.array(dtype=float)):\n        a[wp.tid()] *= g\n\n    return gain\n\n\n"
        "class TestGain(unittest.IsolatedAsyncioTestCase):\n    GAIN = 3.0\n\n    async def asyncSetUp(self):\n"
        "        self.kernel = make_gain(self.GAIN)\n\n    async def test_gain(self):\n"
        "        self.assertIsNotNone(self.kernel)\n",
    )
    assert [r["source"].split("\n\n\n")[1] for r in records] == ["g = 3.0"]


def test_properties_of_plain_settings_made_in_main_give_factory_arguments(tmp_path):
    """`grid = Grid(n=9, length=2.0)` in `main()`, a plain class whose `@property dx` and
    `functools.cached_property inv_dx2` compute from its attributes, then `make_coords(grid.dx)`: the harvest
    made the class as a namespace of its class attributes, the `property` object among them, so `grid.dx` was
    the property itself (Warp's codegen: "Invalid external reference type") and `grid.inv_dx2` was missing.
    Each is now computed by its guarded copy; one with a setter is left out and stops its kernel."""
    (tmp_path / "props.py").write_text(
        "import functools\n\nimport warp as wp\n\n\nclass Grid:\n    def __init__(self, n, length):\n"
        "        self.n = n\n        self.length = length\n\n    @property\n    def dx(self):\n"
        "        return self.length / (self.n - 1)\n\n    @functools.cached_property\n    def inv_dx2(self):\n"
        "        return 1.0 / (self.dx * self.dx)\n\n    @property\n    def cells(self):\n        return self.n - 1\n\n"
        "    @cells.setter\n    def cells(self, value):\n        self.n = value + 1\n\n\n"
        "def make_coords(h):\n    @wp.kernel\n    def coords(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] = float(wp.tid()) * h\n\n    return coords\n\n\ndef make_laplace(inv_h2):\n"
        "    @wp.kernel\n    def laplace(a: wp.array(dtype=float)):\n        a[wp.tid()] *= inv_h2\n\n"
        "    return laplace\n\n\ndef make_cells(m):\n    @wp.kernel\n    def cells(a: wp.array(dtype=int)):\n"
        "        a[wp.tid()] = m\n\n    return cells\n\n\ndef main():\n    grid = Grid(n=9, length=2.0)\n"
        "    make_coords(grid.dx)\n    make_laplace(grid.inv_dx2)\n    make_cells(grid.cells)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_coords.<locals>.coords", "h = 0.25"),
        ("make_laplace.<locals>.laplace", "inv_h2 = 16.0"),
    ]
    assert [r.kernel for r in result.reasons] == ["make_cells.<locals>.cells"]


def test_a_kernel_made_in_a_dataclass_post_init_from_its_fields_is_made(tmp_path):
    """`@dataclass class Amplifier: gain: float = 2.0; kernel: wp.Kernel = field(init=False)` whose
    `__post_init__` sets `self.kernel = make_gain(self.gain)`, and one computing `self.inv_mass = 1.0 / self.mass`
    before its factory call: `self` of `__post_init__` had no value ("self, a parameter of __post_init__, has no
    default and no caller"). It is what the generated `__init__` sets from each construction's arguments, then
    what `__post_init__` set before the call; a field of `init=False` is no parameter of that `__init__`."""
    records = _harvest_script(
        tmp_path,
        "post_init.py",
        "from dataclasses import dataclass, field\n\nimport warp as wp\n\n\ndef make_gain(g):\n    @wp.kernel\n"
        "    def gain(a: wp.array(dtype=float)):\n        a[wp.tid()] *= g\n\n    return gain\n\n\n"
        "def make_accel(inv_m):\n    @wp.kernel\n    def accel(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] *= inv_m\n\n    return accel\n\n\n@dataclass\nclass Amplifier:\n    gain: float = 2.0\n"
        "    kernel: wp.Kernel = field(init=False)\n\n    def __post_init__(self):\n"
        "        self.kernel = make_gain(self.gain)\n\n\n@dataclass\nclass Body:\n    mass: float\n"
        "    inv_mass: float = field(init=False, default=0.0)\n\n    def __post_init__(self):\n"
        "        self.inv_mass = 1.0 / self.mass\n        self.accel = make_accel(self.inv_mass)\n\n\n"
        "if __name__ == '__main__':\n    amp = Amplifier(3.0)\n    body = Body(mass=4.0)\n",
    )
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in records) == [
        ("make_accel.<locals>.accel", "inv_m = 0.25"),
        ("make_gain.<locals>.gain", "g = 3.0"),
    ]


def test_a_name_bound_by_a_walrus_in_an_if_test_of_main_is_read(tmp_path):
    """`if (g := cfg.get("gain")) is not None: make_gain(g)` in `main()`: `g` was "bound in main other than by
    an assignment". A walrus its statement always evaluates is an assignment there; one behind `and` / `or`
    (which may skip it) stays unread."""
    (tmp_path / "walrus.py").write_text(
        "import warp as wp\n\nCFG = {'gain': 2.0, 'bias': 0.5}\n\n\ndef make_gain(g):\n    @wp.kernel\n"
        "    def gain(a: wp.array(dtype=float)):\n        a[wp.tid()] *= g\n\n    return gain\n\n\n"
        "def make_bias(b):\n    @wp.kernel\n    def bias(a: wp.array(dtype=float)):\n        a[wp.tid()] += b\n\n"
        "    return bias\n\n\ndef main(cfg=CFG):\n    if (g := cfg.get('gain')) is not None:\n        make_gain(g)\n"
        "    if cfg and (b := cfg.get('bias')):\n        make_bias(b)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert [(r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records] == [
        ("make_gain.<locals>.gain", "g = 2.0")
    ]
    assert [r.kernel for r in result.reasons] == ["make_bias.<locals>.bias"]


def test_factory_arguments_from_device_questions_in_main_are_read(tmp_path):
    """`make_chunked(4 if wp.get_device().is_cpu else 64)` and `make_fill(wp.get_cuda_device_count())` in
    `main()`: calls the guard refused ("calls get_device, which may act"). Questions about the devices Warp
    found answer as the script's run on this machine would; `wp.set_device(...)`, which changes the device,
    stays refused."""
    import warp as wp

    (tmp_path / "devices.py").write_text(
        "import warp as wp\n\n\ndef make_chunked(chunk):\n    @wp.kernel\n    def chunked(a: wp.array(dtype=int)):\n"
        "        a[wp.tid()] = chunk\n\n    return chunked\n\n\ndef make_fill(v):\n    @wp.kernel\n"
        "    def fill(a: wp.array(dtype=int)):\n        a[wp.tid()] = v\n\n    return fill\n\n\ndef make_set(v):\n"
        "    @wp.kernel\n    def set_on(a: wp.array(dtype=int)):\n        a[wp.tid()] = v\n\n    return set_on\n\n\n"
        "def main():\n    device = wp.get_device()\n    make_chunked(4 if device.is_cpu else 64)\n"
        "    make_fill(max(wp.get_cuda_device_count(), 1))\n    make_set(wp.set_device('cpu') or 1)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    chunk = 4 if wp.get_device().is_cpu else 64
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_chunked.<locals>.chunked", f"chunk = {chunk}"),
        ("make_fill.<locals>.fill", f"v = {max(wp.get_cuda_device_count(), 1)}"),
    ]
    assert [r.kernel for r in result.reasons] == ["make_set.<locals>.set_on"]


def test_settings_files_next_to_the_script_read_in_main_are_read(tmp_path):
    """`cfg.read(Path(__file__).with_name("settings.ini"))`, `with open(os.path.join(HERE, "material.json")) as
    fh: params = json.load(fh)` and `json.loads(Path(...).read_text())` in `main()`: the parser stayed empty
    ("NoSectionError: No section: 'solver'"), `fh` was "bound in main other than by an assignment", `Path` was
    a call that "may act". A file of the script's own folder is read (into memory; the harvest holds no file
    open); opening one to write, or a file elsewhere, stays refused."""
    (tmp_path / "settings.ini").write_text("[solver]\nomega = 0.6\n")
    (tmp_path / "material.json").write_text('{"k": 12.5}')
    (tmp_path / "files.py").write_text(
        "import configparser\nimport json\nimport os\nfrom pathlib import Path\n\nimport warp as wp\n\n"
        "HERE = os.path.dirname(os.path.abspath(__file__))\n\n\ndef make_relax(omega):\n    @wp.kernel\n"
        "    def relax(a: wp.array(dtype=float)):\n        a[wp.tid()] *= omega\n\n    return relax\n\n\n"
        "def make_spring(k):\n    @wp.kernel\n    def spring(a: wp.array(dtype=float)):\n        a[wp.tid()] *= -k\n\n"
        "    return spring\n\n\ndef make_text(k):\n    @wp.kernel\n    def text(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] += k\n\n    return text\n\n\ndef make_written(x):\n    @wp.kernel\n"
        "    def written(a: wp.array(dtype=float)):\n        a[wp.tid()] = x\n\n    return written\n\n\n"
        "def main():\n    cfg = configparser.ConfigParser()\n    cfg.read(Path(__file__).with_name('settings.ini'))\n"
        "    make_relax(cfg.getfloat('solver', 'omega'))\n"
        "    with open(os.path.join(HERE, 'material.json')) as fh:\n        params = json.load(fh)\n"
        "    make_spring(params['k'])\n    text = json.loads((Path(HERE) / 'material.json').read_text())\n"
        "    make_text(text['k'])\n    with open(os.path.join(HERE, 'material.json'), 'a+') as out:\n"
        "        make_written(len(out.read()))\n"
        "    with open(os.path.join(HERE, '..', 'outside.json')) as other:\n"
        "        make_written(json.load(other)['k'])\n"
        "\n\nif __name__ == '__main__':\n    main()\n"
    )
    (tmp_path.parent / "outside.json").write_text('{"k": 1.0}')
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_relax.<locals>.relax", "omega = 0.6"),
        ("make_spring.<locals>.spring", "k = 12.5"),
        ("make_text.<locals>.text", "k = 12.5"),
    ]
    assert [r.kernel for r in result.reasons] == ["make_written.<locals>.written"]
    assert (tmp_path / "material.json").read_text() == '{"k": 12.5}'


def test_click_option_defaults_reach_the_factories_a_command_calls(tmp_path):
    """A `click` command (`@click.command()`, `@click.option("--gain", default=1.5, type=float)`,
    `@click.option("--steps", "-s", default="3", type=int)`, `@click.option("--time-step", default=0.01)`) calling
    factories with its parameters, run as `cli(standalone_mode=False, args=[])`: each parameter "has no default
    and no caller". It is what click gives a command line without the option (the default, converted by a
    built-in `type=`); a `default=` click would call (a lambda) stays unread."""
    (tmp_path / "cli.py").write_text(
        "import click\nimport warp as wp\n\n\ndef make_gain(g):\n    @wp.kernel\n"
        "    def gain(a: wp.array(dtype=float)):\n        a[wp.tid()] *= g\n\n    return gain\n\n\n"
        "def make_steps(n):\n    @wp.kernel\n    def steps(a: wp.array(dtype=float)):\n        for _ in range(n):\n"
        "            a[wp.tid()] += 1.0\n\n    return steps\n\n\ndef make_dt(dt):\n    @wp.kernel\n"
        "    def advance(a: wp.array(dtype=float)):\n        a[wp.tid()] *= dt\n\n    return advance\n\n\n"
        "def make_late(x):\n    @wp.kernel\n    def late(a: wp.array(dtype=float)):\n        a[wp.tid()] = x\n\n"
        "    return late\n\n\n@click.command()\n@click.option('--gain', default=1.5, type=float, show_default=True)\n"
        "@click.option('--steps', '-s', default='3', type=int)\n@click.option('--time-step', default=0.01)\n"
        "@click.option('--late', default=lambda: 2.0)\ndef cli(gain, steps, time_step, late):\n    make_gain(gain)\n"
        "    make_steps(steps)\n    make_dt(time_step)\n    make_late(late)\n\n\n"
        "if __name__ == '__main__':\n    cli(standalone_mode=False, args=[])\n"
    )
    result = harvest([str(tmp_path)], workers=1)
    assert sorted((r["qualname"], r["source"].split("\n\n\n")[1]) for r in result.records) == [
        ("make_dt.<locals>.advance", "dt = 0.01"),
        ("make_gain.<locals>.gain", "g = 1.5"),
        ("make_steps.<locals>.steps", "n = 3"),
    ]
    assert [r.kernel for r in result.reasons] == ["make_late.<locals>.late"]


def test_a_kernel_calling_funcs_a_user_decorator_filed_in_a_table_is_written(tmp_path):
    """`@op def softplus(x: float) -> float: ...` where `op` files `wp.func(fn)` in a module dict and returns the
    plain function, and a kernel calling `wp.static(FUNCS["softplus"])(x)`: the self-contained text kept `@op`
    above the function's def, which ran the user's decorator on a `FUNCS` not yet written ("NameError: name
    'FUNCS' is not defined"). Warp made the function from the undecorated def, so the text makes it so
    (`softplus = wp.func(softplus)`) without the user's decorators, and the table of those functions after."""
    records = _harvest_script(
        tmp_path,
        "registry.py",
        "import warp as wp\n\nFUNCS = {}\n\n\ndef op(fn):\n    FUNCS[fn.__name__] = wp.func(fn)\n    return fn\n\n\n"
        "@op\ndef softplus(x: float) -> float:\n    return wp.log(1.0 + wp.exp(x))\n\n\n"
        "@op\ndef twice(x: float) -> float:\n"
        "    return 2.0 * x\n\n\n@wp.kernel\ndef apply_reg(a: wp.array(dtype=float)):\n"
        "    a[wp.tid()] = wp.static(FUNCS['twice'])(wp.static(FUNCS['softplus'])(a[wp.tid()]))\n",
    )
    assert [r["qualname"] for r in records] == ["apply_reg"]
    assert "@op" not in records[0]["source"] and "softplus = wp.func(softplus)" in records[0]["source"]


def test_a_switch_inside_a_kernel_decorators_option_is_written_with_the_value_warp_kept(tmp_path):
    """`@wp.kernel(module="unique" if unique else None)` and `@wp.kernel(enable_backward=not nograd)` inside
    factories: the option's expression reads a factory parameter the kernel does not capture, so the
    self-contained text "refers to 'unique', not found". The switch's value is the one (of True, False, None)
    for which the expression gives what the kernel kept: its module's name, its option."""
    records = _harvest_script(
        tmp_path,
        "switches.py",
        "import warp as wp\n\n\ndef make_norm(p, unique=True):\n"
        "    @wp.kernel(module='unique' if unique else None)\n    def norm_u(a: wp.array(dtype=float)):\n"
        "        a[wp.tid()] = wp.pow(wp.abs(a[wp.tid()]), p)\n\n    return norm_u\n\n\n"
        "def make_scale(s, nograd=False):\n    @wp.kernel(enable_backward=not nograd)\n"
        "    def scale_g(a: wp.array(dtype=float)):\n        a[wp.tid()] *= s\n\n    return scale_g\n\n\n"
        "if __name__ == '__main__':\n    make_norm(3.0)\n    make_scale(2.0, nograd=True)\n",
    )
    sources = {r["qualname"]: r["source"] for r in records}
    assert sorted(sources) == ["make_norm.<locals>.norm_u", "make_scale.<locals>.scale_g"]
    assert "unique = True" in sources["make_norm.<locals>.norm_u"]
    assert "nograd = True" in sources["make_scale.<locals>.scale_g"]


def test_a_bare_name_is_the_installed_package_even_beside_a_folder_so_named(tmp_path, monkeypatch, capsys):
    # A build resolves its targets in several stages: a folder `warp` that appears in the working directory
    # between them (Warp's kernel cache, `WARP_CACHE_PATH=warp`) must not turn `--real warp` into it.
    (tmp_path / "warp").mkdir()
    (tmp_path / "warp" / "mine.py").write_text((KERNELS / "wci_forms" / "main_guard.py").read_text())
    (tmp_path / "my_kernels").mkdir()
    (tmp_path / "my_kernels" / "mine.py").write_text((KERNELS / "wci_forms" / "main_guard.py").read_text())
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # as under `python -m`: `my_kernels` imports as a namespace
    package = discover.resolve("warp", 0)
    assert package.kind == "package" and package.package == "warp-lang"
    assert capsys.readouterr().err.count("write ./warp for the folder") == 1
    folder = discover.resolve("./warp", 0)
    assert folder.kind == "folder" and folder.root == (tmp_path / "warp").resolve()
    assert [j.path for j in folder.jobs] == [str((tmp_path / "warp" / "mine.py").resolve())]
    # A name no installed package has (that folder itself importing by it does not count) is the folder.
    assert discover.resolve("my_kernels", 0).kind == "folder"


def test_a_killed_item_blames_its_kernel_and_loses_only_what_no_other_item_claimed(tmp_path):
    # Items claim each kernel just before processing it, so a killed item leaves the rest of what its import
    # announced to other items; what none of them claimed is reported lost with it, and counted as discovered.
    import json

    from warp_cuda_ir.engines import Outcome
    from warp_cuda_ir.harvest import run, worker

    for folder in ("claimed", "announced", "results"):
        (tmp_path / folder).mkdir()
    target = discover.resolve(str(KERNELS), 0)
    a, b, c = (f"0|k.py|{n}|k{n}||" for n in (1, 2, 3))
    jobs = [discover.Job(0, "k", "k.py"), discover.Job(0, "m", "m.py")]
    for job, announced, claimed, done in ((0, [a, b, c], [a], []), (1, [c], [c], [c])):
        worker.announced_path(tmp_path, job).write_text(json.dumps(announced))
        worker.claimed_path(tmp_path, job).write_text(json.dumps(claimed))
        worker.results_dir(tmp_path, job).mkdir()
        for i, ident in enumerate(done):
            message = {"op": "result", "ident": ident, "category": reasons.NO_SOURCE, "detail": "x"}
            (worker.results_dir(tmp_path, job) / f"{i:06d}.json").write_text(json.dumps(message))
    state = run._State([target], [], None)
    run._collect(jobs[0], Outcome.crashed(0, -9), str(tmp_path), state, 120.0, 180.0)
    run._collect(jobs[1], Outcome(1, "ok", {"category": None, "error": None}), str(tmp_path), state, 120.0, 180.0)
    state.orphans_lost()
    got = {(r.kernel, r.category, r.detail) for r in state.reasons}
    assert got == {
        ("k1", reasons.WORKER_DIED, "exit code -9"),
        ("k2", reasons.WORKER_DIED, "its worker was killed for another kernel"),
        ("k3", reasons.NO_SOURCE, "x"),
    }
    assert state.discovered == {target.package: 3}
