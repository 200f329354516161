"""Fixtures for the appliance: a headless app on a temporary journal with a fake clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from device.app import App
from device.config import Config, config_from_dict
from device.journal import Journal


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def make_config(tmp_path: Path, **sections: dict) -> Config:
    data = {"device": {"state_dir": str(tmp_path), "language": "en"}, **sections}
    return config_from_dict(data)


@pytest.fixture
def make_app(tmp_path: Path, clock: FakeClock) -> Iterator:
    apps: list[App] = []

    def build(size: tuple[int, int] = (800, 480), config: Config | None = None) -> App:
        pygame.display.init()
        surface = pygame.Surface(size)
        cfg = config or make_config(tmp_path)
        journal = Journal.open(cfg.device.journal_path)
        app = App(cfg, surface=surface, journal=journal, clock=clock)
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.journal.close()
