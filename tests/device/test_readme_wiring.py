"""The wiring table (``docs/install.md``) shows the pins the config uses by default."""

from __future__ import annotations

import re
from pathlib import Path

from device.config import DEFAULT_BUTTONS, DEFAULT_BUZZER, DEFAULT_LEDS

INSTALL = Path(__file__).resolve().parents[2] / "docs" / "install.md"
# BCM number -> 40-pin header position
HEADER = {5: 29, 6: 31, 13: 33, 17: 11, 18: 12, 19: 35, 22: 15, 23: 16, 27: 13}


def test_wiring_table_matches_the_config_defaults() -> None:
    text = INSTALL.read_text().split("## Wiring the seats", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3:
            rows[cells[0]] = [(int(b), int(h)) for b, h in re.findall(r"GPIO(\d+) / pin (\d+)", line)]
    for seat, (button, led) in enumerate(zip(DEFAULT_BUTTONS, DEFAULT_LEDS, strict=True), start=1):
        assert rows[str(seat)] == [(button, HEADER[button]), (led, HEADER[led])]
    assert rows["buzzer"] == [(DEFAULT_BUZZER, HEADER[DEFAULT_BUZZER])]
