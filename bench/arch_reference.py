"""The answers another CPU must give as x86-64 does: the Rummikub solver's on the bench positions and the
readers' on a fixed set of photos, committed from x86-64, compared by the suite on any machine
(``make test-arm64`` on aarch64, under emulation).

    .venv/bin/python bench/arch_reference.py           # compare this machine's with the committed ones
    .venv/bin/python bench/arch_reference.py --write   # write both files again (x86-64 only)

Write them again when any net changes (``vision/models``: the dice, tile and card readers' nets and
settings; the Zatre readers use the dice classifier) or the solver's answers change on purpose
(``rules/rummikub``: its answers); the files name what made them. The solver's answers are
``tests/rules/rummikub/test_compiled.py``'s ``answers()`` (positions of every size class of
``bench/rummikub_solvers.py``) in ``tests/rules/rummikub/data/answers.json``; the readings and their
tolerance are ``tests/vision/readings.py``'s, in ``tests/vision/data/readings.json``: every reader that
runs a net (dice, tiles, cards and their corner indices, the Zatre board and loose cards). The dice
photos come from the shared photo sets (``REFEREE_DATASETS``), the others are committed; ``--write``
first renders the frames of ``tests/vision/data/rendered`` that are missing (delete one to render it
again, e.g. after its renderer changed).
"""

from __future__ import annotations

import json
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.rummikub.partition import COMPILED
from tests.rules.rummikub.test_compiled import ANSWERS, answers
from tests.vision import readings


def dump(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    write = argv[1:] == ["--write"]
    if argv[1:] and not write:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    machine = platform.machine()
    if not readings.dice_photos_present():
        print(f"arch_reference: the shared photo sets are not at {readings.DATASETS} (REFEREE_DATASETS)")
        return 2
    if write and machine != "x86_64":
        print(f"arch_reference: the committed answers come from x86-64, this is {machine}")
        return 2
    solver = {"written_on": machine, "answers": answers()}
    build = "compiled" if COMPILED else "the Python sources"
    if write:
        for path in readings.render_missing():
            print(f"rendered: {path.relative_to(readings.REPO)}")
        found = readings.readings()
        dump(ANSWERS, solver)
        dump(readings.EXPECTED, found)
        print(f"written: {ANSWERS.relative_to(readings.REPO)} (solver: {build}),")
        print(f"         {readings.EXPECTED.relative_to(readings.REPO)} ({len(found['photos'])} photos)")
        return 0
    found = readings.readings()
    committed = json.loads(ANSWERS.read_text(encoding="utf-8"))
    solver_same = committed["answers"] == json.loads(json.dumps(solver["answers"]))
    print(f"solver ({build}) on {machine}: {'the same' if solver_same else 'DIFFERENT'} answers as x86-64")
    expected = readings.load_expected()
    if expected["models"] != readings.models_digest():
        print(f"readings: the nets changed since they were written; write them again: {readings.REGENERATE}")
        return 1
    gaps = readings.differences(expected, found)
    print(f"readings on {machine}: {len(gaps) or 'no'} differences beyond {expected['tolerance']}")
    for gap in gaps:
        print("  ", gap)
    return 0 if solver_same and not gaps else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
