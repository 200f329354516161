"""Test set-up shared by every package: headless SDL, gpiozero's mock pins, Hypothesis profiles."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from device.coach_tables import load_table, save_table
from rules.coach.model import DiceModel
from rules.coach.table import Table, build

settings.register_profile(
    "default", deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


EMULATED = os.environ.get("REFEREE_EMULATED", "") not in ("", "0")  # make test-arm64: under qemu-user


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under emulation (``make test-arm64``) a test marked ``not_emulated(reason=…)`` is skipped with its
    reason, which ``-rs`` prints; a mark without a reason is an error, emulated or not."""
    for item in items:
        mark = item.get_closest_marker("not_emulated")
        if mark is None:
            continue
        reason = mark.kwargs.get("reason") or (mark.args[0] if mark.args else "")
        if not reason:
            raise pytest.UsageError(f"{item.nodeid}: not_emulated needs a reason (not_emulated(reason=...))")
        if EMULATED:
            item.add_marker(pytest.mark.skip(reason=f"not under emulation: {reason}"))


@pytest.fixture
def mock_factory() -> Iterator[object]:
    """gpiozero's MockFactory as the default pin factory for one test; pins are reset after."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    old = Device.pin_factory
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = old


# Full coach tables, built once and kept in pytest's cache (.pytest_cache) between runs. A table's
# cache file is named by a hash of every source file that decides its values (the coach, the solvers,
# the engine's scoring), so a change to any of them builds it again. The Kości table is built through
# `referee coach build` itself.

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [
    ROOT / path
    for path in (
        "rules/dice.py",
        "rules/coach/dice_sets.py",
        "rules/coach/widget.py",
        "rules/coach/table.py",
        "rules/yahtzee/scoring.py",
        "rules/yahtzee/sheet.py",
        "rules/yahtzee/solver.py",
        "rules/poker_dice/scoring.py",
        "rules/poker_dice/sheet.py",
        "rules/poker_dice/solver.py",
    )
]


def _digest(model: DiceModel) -> str:
    h = hashlib.sha256(repr(sorted(dict(model.signature).items())).encode())
    for path in SOURCES:
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


@pytest.fixture(scope="session")
def full_table(request: pytest.FixtureRequest) -> Callable[..., Table]:
    """``full_table(model, via_cli=False)``: the model's whole table, from the cache or built now."""
    directory = Path(request.config.cache.mkdir("coach-tables"))

    def get(model: DiceModel, via_cli: bool = False) -> Table:
        path = directory / f"{model.game}-{_digest(model)}.npz"
        if not path.exists():
            if via_cli:
                from device.cli import main

                assert main(["coach", "build", model.game, "--table", str(path)]) == 0
            else:
                save_table(build(model), path)
        return load_table(model, path)

    return get
