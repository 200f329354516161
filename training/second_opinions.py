"""Second opinions for the dice reader (``training.dice --second-opinion DIR``), torch-free.

A classifier trained into a folder of its own (``training.dice --out DIR``) is copied beside the shipped
nets as ``dice_classifier_2.onnx`` (``_3``, … for more) and named in the settings' ``second_opinions``
with the temperature its own run fitted and what it learned from; ``vision.dice.DiceModels.read`` asks it
about the doubtful dice only. The threshold is then fitted with it (``training.dice.calibrate``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any


def second_opinions(folders: list[Path], out: Path, unknown: str) -> list[dict[str, Any]]:
    """The classifiers of ``folders`` copied into ``out``, as the settings' ``second_opinions`` list.
    ``unknown``: what a net whose settings do not say what it learned from is said to have learned from.
    A folder without a dice reader's settings is refused, naming the file."""
    opinions = []
    for k, folder in enumerate(folders, 2):
        path = folder / "dice_reader.json"
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no dice reader settings (train one with --out {folder})")
        settings = json.loads(path.read_text())
        name = f"dice_classifier_{k}.onnx"
        shutil.copyfile(folder / settings["classifier"], out / name)
        learned = settings.get("learned_from", {}).get("classifier", unknown)
        opinions.append({"classifier": name, "temperature": settings["temperature"], "learned_from": learned})
    return opinions
