"""The compiled solver and its reference, the Python sources (``rules/rummikub/partition/compiled.py``).

The rest of the suite runs whichever :data:`~rules.rummikub.partition.COMPILED` says; here the
sources run in a subprocess (``REFEREE_PURE_PYTHON=1``) and must answer exactly as in-process, and
a stamp that does not match the sources must leave the sources running.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from rules.rummikub import Meld, arrange, best_move, best_opening
from rules.rummikub.partition import COMPILED, compiled
from rules.rummikub.tiles import full_set, tiles_text
from tests.rules.rummikub.positions import random_position

ROOT = Path(__file__).resolve().parents[3]
PURE = {**os.environ, compiled.ENV: "1"}
ANSWERS = Path(__file__).parent / "data" / "answers.json"  # answers() on x86-64: bench/arch_reference.py

# Positions of every size class of bench/rummikub_solvers.py, answered by both.
_ANSWERS = """
import json
from tests.rules.rummikub.test_compiled import answers
print(json.dumps(answers()))
"""


def answers() -> dict[str, object]:
    """Every solver's answer on fixed positions, as text (what the two runs compare)."""
    rng = random.Random(18)
    moves = []
    for rack_size, table_size in ((14, 0), (14, 20), (20, 40), (20, 80), (30, 20), (30, 60)):
        for _ in range(3):
            melds, rack = random_position(rng, table_size, rack_size)
            move = best_move([Meld(tuple(m)) for m in melds], rack)
            plain = best_move([Meld(tuple(m)) for m in melds], rack, fewest_changed=False)
            moves.append(
                [
                    None if move is None else [tiles_text(move.placed), move.value, move.changed],
                    None if move is None else [tiles_text(m.tiles) for m in move.table],
                    None if plain is None else [tiles_text(plain.placed), plain.value],
                ]
            )
    openings = []
    for _ in range(6):
        tiles = full_set()
        rng.shuffle(tiles)
        value, opening = best_opening(tiles[:20])
        openings.append([value, [tiles_text(m.tiles) for m in opening]])
    tables = []
    for _ in range(3):
        melds, _ = random_position(rng, 40, 0)
        laid = arrange([t for m in melds for t in m])
        tables.append(None if laid is None else [tiles_text(m.tiles) for m in laid])
    return {"moves": moves, "openings": openings, "tables": tables}


def _pure_python(code: str, cwd: Path = ROOT) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=PURE, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_sources_answer_exactly_as_the_solver_in_use() -> None:
    """Best moves (plain and full), openings and arrangements: the same melds, tile for tile."""
    if not COMPILED:
        pytest.skip("the solver is not compiled here: the suite already runs the sources")
    assert json.loads(_pure_python(_ANSWERS)) == json.loads(json.dumps(answers()))


def test_the_answers_are_those_committed_from_x86_64() -> None:
    """On any CPU (aarch64 under ``make test-arm64``) the solver in use answers as it did on x86-64; the
    test above holds the sources to the same answers. A change of answers on purpose: write them again
    with ``bench/arch_reference.py --write`` on x86-64."""
    committed = json.loads(ANSWERS.read_text(encoding="utf-8"))
    assert committed["written_on"] == "x86_64"
    assert json.loads(json.dumps(answers())) == committed["answers"]


def test_the_solver_tests_and_examples_pass_on_the_sources() -> None:
    """The solver's own tests and its modules' docstring examples, on the Python sources."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-x",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "--no-cov",
            "rules/rummikub/partition",
            *(f"rules/rummikub/partition/{name}.py" for name in compiled.MODULES),  # (pyproject ignores them)
            "tests/rules/rummikub/test_solvers.py",
        ],
        cwd=ROOT,
        env=PURE,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "failed" not in result.stdout


def test_the_suite_leaves_the_examples_of_the_compiled_modules_to_the_run_above() -> None:
    """pytest cannot import a compiled module by its path, so ``pyproject.toml`` ignores exactly
    :data:`~rules.rummikub.partition.compiled.MODULES`, and the test above runs them on the sources."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        addopts = tomllib.load(file)["tool"]["pytest"]["ini_options"]["addopts"].split()
    ignored = {arg.removeprefix("--ignore=") for arg in addopts if arg.startswith("--ignore=rules/")}
    assert ignored == {f"rules/rummikub/partition/{name}.py" for name in compiled.MODULES}


def test_the_solver_loads_without_an_import_hook() -> None:
    """The choice touches the solver's modules only: nothing is left on ``sys.meta_path``."""
    code = (
        "import sys; before = list(sys.meta_path); import rules.rummikub.partition as p;"
        " print(sys.meta_path == before, p.search is sys.modules['rules.rummikub.partition.search'])"
    )
    for env in (PURE, {k: v for k, v in os.environ.items() if k != compiled.ENV}):
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == ["True", "True"]


def test_the_stamp_names_the_sources(tmp_path: Path) -> None:
    for path in compiled.sources():
        shutil.copy(path, tmp_path / path.name)
    assert not compiled.fresh(tmp_path)  # no stamp
    (tmp_path / compiled.STAMP).write_text(json.dumps(compiled.digests(tmp_path)))
    assert compiled.fresh(tmp_path)
    (tmp_path / compiled.STAMP).write_text("{not json")
    assert not compiled.fresh(tmp_path)
    (tmp_path / compiled.STAMP).write_text(json.dumps(compiled.digests(tmp_path)))
    with (tmp_path / "search.py").open("a") as source:
        source.write("# edited after the build\n")
    assert not compiled.fresh(tmp_path)


_WHICH = (
    "import rules.rummikub.partition as p, rules.rummikub.partition.search as s;"
    " from rules.rummikub import best_move, Meld; from rules.rummikub.tiles import parse_tiles;"
    " m = best_move([Meld.parse('R3 R4 R5')], parse_tiles('R6 B1'));"
    " print(p.COMPILED, s.__file__.endswith('.py'), [str(t) for t in m.placed])"
)


def test_compiled_code_older_than_its_sources_never_runs(tmp_path: Path) -> None:
    """A copy of the package with one source edited after the build runs the sources."""
    shutil.copytree(ROOT / "rules", tmp_path / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != compiled.ENV}
    run = [sys.executable, "-c", _WHICH]
    as_built = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert as_built.returncode == 0, as_built.stderr
    built = compiled.fresh()  # (COMPILED would say False under REFEREE_PURE_PYTHON, which the copy lacks)
    assert as_built.stdout.split()[:2] == ([str(True), str(False)] if built else [str(False), str(True)])
    with (tmp_path / "rules" / "rummikub" / "partition" / "search.py").open("a") as source:
        source.write("# edited after the build\n")
    edited = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert edited.returncode == 0, edited.stderr
    assert edited.stdout.split() == ["False", "True", "['R6']"]


def test_pure_python_when_asked() -> None:
    assert _pure_python(_WHICH).split() == ["False", "True", "['R6']"]


def _can_compile() -> bool:
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(os.environ.get("CC", "cc")) is not None and headers.exists()


@pytest.mark.skipif(not os.environ.get("REFEREE_EXPECT_COMPILED"), reason="only under make (make test)")
def test_make_test_runs_the_compiled_solver() -> None:
    """``make test`` builds the extensions where a C compiler and the Python headers are: a build
    that failed silently would leave the solver three times slower, so this says so."""
    if not _can_compile() or compiled.pure_wanted():
        pytest.skip("no C compiler or Python headers here (or REFEREE_PURE_PYTHON): the sources run")
    assert COMPILED, "the Rummikub solver is not compiled: run `make solver` and read its output"
