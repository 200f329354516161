"""The referee's voice (budgets: event to first sound ≤ 300 ms median; the UI frame ≤ 8 ms, unchanged
while speaking).

    .venv/bin/python bench/voice.py [--trials 40]

1. espeak-ng: the time to synthesise each message kind's example in each language.
2. Event to first sound: the appliance's loop at 30 frames a second (a Generał game, the narrator
   attached), a seat button pressed out of turn at a random moment of a frame; from the press reaching
   the event queue to the refusal's sound handed to ``aplay`` (its first bytes written; ``aplay -D null``
   where there is no sound card: with a card, ALSA starts it within its period, ~10–20 ms).
3. The UI frame (``App.step``: events, the narrator, drawing the dice table) over 300 frames, the voice
   silent and the voice speaking all the time (a new sentence every frame: espeak-ng and aplay busy
   in their own processes).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from device.app import App
from device.config import config_from_dict
from device.i18n import LANGUAGES, Translator
from device.journal import Journal
from device.sessions.dice_events import DiceSeen, SeenDie
from device.voice import KINDS, Voice, attach, sentence
from device.voice.output import Aplay, open_output
from device.voice.synth import Synthesiser
from drivers.events import ButtonEvent

FPS = 30
FRAMES = 300


def synthesis(synth: Synthesiser) -> None:
    times = []
    for language in LANGUAGES:
        tr = Translator(language)
        for kind in KINDS.values():
            text = sentence(tr, kind.name, **kind.sample)
            began = time.perf_counter()
            synth.wav(text, language)
            times.append((time.perf_counter() - began) * 1000)
    times.sort()
    print(
        f"synthesis, {len(times)} sentences (every kind × 4 languages):"
        f" median {statistics.median(times):.1f} ms, p90 {times[int(len(times) * 0.9)]:.1f} ms,"
        f" worst {times[-1]:.1f} ms"
    )


def game_app(voice: Voice) -> App:
    pygame.display.init()
    pygame.font.init()
    state = Path(tempfile.mkdtemp())
    config = config_from_dict({"device": {"state_dir": str(state)}})
    app = App(config, surface=pygame.Surface((800, 480)), journal=Journal.open(config.device.journal_path))
    attach(app, voice)
    app.start_game(app.settings.game_options("yahtzee", players=2, seed=1), ["Ala", "Ola"])
    app.post(DiceSeen(tuple(SeenDie(v) for v in (3, 3, 3, 6, 6))))
    app.step()
    voice.idle(10)
    return app


def first_sound(voice: Voice, trials: int) -> None:
    app = game_app(voice)
    rng = random.Random(1)
    frame = 1.0 / FPS
    latencies = []
    for _ in range(trials):
        heard = len(voice.sounds)
        next_frame = time.monotonic() + frame
        time.sleep(rng.random() * frame)
        pressed = time.monotonic()
        app.post(ButtonEvent(1, "press", "bench"))  # out of turn: "Not your turn …"
        deadline = pressed + 5.0
        while len(voice.sounds) == heard and time.monotonic() < deadline:
            time.sleep(max(0.0, next_frame - time.monotonic()))
            next_frame += frame
            app.step()
        if len(voice.sounds) == heard:
            print("no sound within 5 s: is aplay working?")
            return
        latencies.append((voice.sounds[-1][1] - pressed) * 1000)
        voice.idle(10)
    latencies.sort()
    print(
        f"event to first sound, {trials} presses at {FPS} fps:"
        f" median {statistics.median(latencies):.0f} ms, p90 {latencies[int(trials * 0.9)]:.0f} ms,"
        f" worst {latencies[-1]:.0f} ms (budget ≤ 300 ms median)"
    )


def frame_times(voice: Voice) -> None:
    """Blocks of 20 frames, silent and speaking in turn (the machine's load drifts; both see it)."""
    app = game_app(voice)
    speaker = app.voice
    assert speaker is not None
    kinds = [k for k in KINDS.values() if k.group in ("turn", "timer", "scores", "results", "test")]
    times: dict[bool, list[float]] = {False: [], True: []}
    for i in range(2 * FRAMES):
        speaking = (i // 20) % 2 == 1
        if speaking:
            kind = kinds[i % len(kinds)]
            speaker.speak(kind.name, **kind.sample)  # a new sentence each frame: the worker never rests
        began = time.perf_counter()
        app.step()
        times[speaking].append((time.perf_counter() - began) * 1000)
    voice.silence()
    for speaking in (False, True):
        got = sorted(times[speaking])
        label = "speaking all the time" if speaking else "silent"
        print(
            f"UI frame, the voice {label:<22}: median {statistics.median(got):.2f} ms,"
            f" p90 {got[int(len(got) * 0.9)]:.2f} ms, p95 {got[int(len(got) * 0.95)]:.2f} ms (budget ≤ 8 ms)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=40)
    args = parser.parse_args()
    synth = Synthesiser()
    if not synth.available:
        sys.exit("espeak-ng is not installed (apt install espeak-ng)")
    aplay = shutil.which("aplay")
    if aplay is None:
        sys.exit("aplay is not installed (apt install alsa-utils)")
    output, line = open_output()
    if output is None:
        output, line = Aplay(aplay, "null"), f"aplay -D null ({line})"
    print(f"espeak-ng: {synth.program}; player: {line}; load average {os.getloadavg()[0]:.1f}")
    synthesis(synth)
    first_sound(Voice(synth, output), args.trials)
    frame_times(Voice(synth, output))


if __name__ == "__main__":
    main()
