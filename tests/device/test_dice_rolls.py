"""What a roll is (device.sessions.dice_rolls): each case of the definition, on readings and on real
frame sequences through the settle tracker, the vision worker and the session together."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vision
from device.sessions.dice_events import SeenDie
from device.sessions.dice_rolls import Scene, Verdict, as_roll, judge, place, roll_of
from device.vision_worker import VisionWorker
from rules.dice import Roll
from tests.device.helpers import start, tap
from vision.synth import HOLD_FRACTION, render_dice_scene

ROLL = Roll.parse("3 3 5 1 6")


def scene_in(verdict: Verdict) -> Scene:
    """The scene a verdict leaves (every verdict it is asked of here leaves one)."""
    assert verdict.scene is not None
    return verdict.scene


def scene_of(values=(3, 3, 5, 1, 6), held=()) -> Scene:
    """The scene after a roll of ``values`` (slots in order)."""
    verdict = judge(Scene(()), place(values, held), roll=None)
    assert verdict.kind == "roll"
    return scene_in(verdict)


def moved(dice: list[SeenDie], i: int, *, dx: float = 0.0, dy: float = 0.0, **changes) -> list[SeenDie]:
    out = list(dice)
    center = out[i].center
    assert center is not None
    x, y = center
    out[i] = replace(out[i], center=(x + dx, y + dy), **changes)
    return out


# --- the definition, case by case ------------------------------------------------------------------


def test_dice_moved_into_the_hold_zone_and_back_are_not_a_roll() -> None:
    scene = scene_of()
    dice = moved(place([3, 3, 5, 1, 6]), 1, dy=420, held=True)
    verdict = judge(scene, dice, roll=ROLL)
    assert verdict.kind == "same" and scene_in(verdict).held_slots() == (1,)
    back = moved(dice, 1, dx=60, dy=-400, held=False)
    again = judge(verdict.scene, back, roll=ROLL)
    assert again.kind == "same" and scene_in(again).held_slots() == ()


def test_a_nudged_or_straightened_die_is_not_a_roll() -> None:
    dice = place([3, 3, 5, 1, 6])
    assert judge(scene_of(), moved(dice, 2, dx=70, dy=30), roll=ROLL).kind == "same"
    assert judge(scene_of(), moved(dice, 2, dx=10), roll=ROLL).kind == "same"


def test_a_hand_over_the_tray_changes_nothing() -> None:
    verdict = judge(scene_of(), place([3, 3, 5, 1, 6]), roll=ROLL)
    assert verdict.kind == "same" and roll_of(replace(verdict, kind="roll")) == ROLL


def test_a_die_taken_out_and_put_back_is_not_a_roll() -> None:
    scene = scene_of()
    lifted = judge(scene, place([3, 3, 5, 1, 6])[:4], roll=ROLL)
    assert lifted.kind == "incomplete" and lifted.scene is scene
    put_back = moved(place([3, 3, 5, 1, 6]), 4, dx=-20, dy=300)
    assert judge(lifted.scene, put_back, roll=ROLL).kind == "same"


def test_a_re_roll_showing_the_same_values_counts() -> None:
    verdict = judge(scene_of(), place([3, 3, 5, 1, 6], dx=300), roll=ROLL)
    assert verdict.kind == "roll" and verdict.held == ()


def test_held_dice_keep_the_slot_they_came_from() -> None:
    scene = scene_in(judge(scene_of(), moved(place([3, 3, 5, 1, 6]), 3, dy=420, held=True), roll=ROLL))
    thrown = [SeenDie(v, center=(150.0 * i + 60, 120.0), size=100) for i, v in enumerate((2, 4, 4, 3))]
    held = next(d for d in scene.dice if d.die.held).die
    verdict = judge(scene, [*thrown, held], roll=ROLL)
    assert verdict.kind == "roll" and verdict.held == (3,)
    new = roll_of(verdict)
    assert new.values[3] == 1 and sorted(new.values) == [1, 2, 3, 4, 4]


def test_a_held_die_with_the_value_of_a_thrown_one_keeps_its_own_slot() -> None:
    # The 3 pushed into the hold zone came from slot 1; a thrown die showing 3 must not take slot 1.
    scene = scene_of((4, 3, 5, 3, 6))
    held = SeenDie(3, held=True, center=(300.0, 620.0), size=100)
    thrown = [SeenDie(v, center=(900.0 + 150 * i, 100.0), size=100) for i, v in enumerate((3, 2, 2, 2))]
    verdict = judge(scene, [held, *thrown], roll=Roll.parse("4 3 5 3 6"))
    assert verdict.kind == "roll" and verdict.held == (1,)


def test_the_first_reading_after_a_start_is_not_a_roll() -> None:
    verdict = judge(None, place([1, 2, 3, 4, 5]), roll=None)
    assert verdict.kind == "current"
    assert judge(verdict.scene, place([1, 2, 3, 4, 5], dx=300), roll=None).kind == "roll"


def test_the_first_reading_after_a_resume_is_the_journals_roll() -> None:
    verdict = judge(None, place([6, 1, 5, 3, 3], held=[0]), roll=ROLL)
    assert verdict.kind == "current" and roll_of(replace(verdict, kind="roll")).values[0] == 3
    assert judge(None, place([6, 6, 6, 3, 3]), roll=ROLL).kind == "ask"


def test_when_frames_were_lost_the_device_asks() -> None:
    verdict = judge(scene_of(), place([2, 2, 4, 6, 1], dx=200), roll=ROLL, gap=True)
    assert verdict.kind == "ask"
    assert as_roll(verdict, later=True).kind == "roll"
    assert judge(scene_of(), place([3, 3, 5, 1, 6]), roll=ROLL, gap=True).kind == "same"


def test_one_die_cannot_tell_a_throw_from_a_die_put_back() -> None:
    held = [0, 1, 2, 3]
    scene = scene_of(held=held)
    same = moved(place([3, 3, 5, 1, 6], held=held), 4, dx=-300, dy=100)
    assert judge(scene, same, roll=ROLL).kind == "ask"
    changed = moved(same, 4, value=2)
    assert judge(scene, changed, roll=ROLL).kind == "roll"
    assert judge(scene, moved(place([3, 3, 5, 1, 6], held=held), 4, value=2), roll=ROLL).kind == "ask"


def test_a_die_turned_by_hand_is_asked_about() -> None:
    assert judge(scene_of(), moved(place([3, 3, 5, 1, 6]), 2, value=4), roll=ROLL).kind == "ask"


def test_readings_entered_by_hand_are_rolls_without_a_scene() -> None:
    verdict = judge(scene_of(), [SeenDie(v) for v in (1, 2, 3, 4, 5)], roll=ROLL)
    assert verdict.kind == "roll" and verdict.scene is None


# --- invariants ------------------------------------------------------------------------------------

values5 = st.lists(st.integers(1, 6), min_size=5, max_size=5)


@settings(max_examples=150, deadline=None)
@given(
    values=values5,
    steps=st.lists(st.tuples(st.integers(0, 4), st.sampled_from(["hold", "nudge"])), max_size=8),
)
def test_holding_and_nudging_never_count_as_a_roll(values, steps) -> None:
    scene = scene_of(values)
    dice = [p.die for p in scene.dice]
    for i, kind in steps:
        x, y = dice[i].center
        if kind == "hold":
            held = not dice[i].held
            dice[i] = replace(dice[i], held=held, center=(x, 620.0 + 10 * i if held else 200.0 + 10 * i))
        else:
            dice[i] = replace(dice[i], center=(x + 25, y + 25))
        verdict = judge(scene, dice, roll=Roll(tuple(values)))
        assert verdict.kind == "same", (verdict, dice)
        scene = scene_in(verdict)
        assert sorted(p.slot for p in scene.dice if p.slot is not None) == [0, 1, 2, 3, 4]


@settings(max_examples=150, deadline=None)
@given(values=values5, new=values5, keep=st.sets(st.integers(0, 4), max_size=3))
def test_a_throw_of_the_rolling_dice_is_a_roll_and_held_dice_keep_their_values(values, new, keep) -> None:
    scene = scene_of(values)
    dice = [p.die for p in scene.dice]
    for i in keep:  # pushed into the hold zone, then the rest thrown far away
        dice[i] = replace(dice[i], held=True, center=(200.0 * i + 100, 620.0))
    scene = scene_in(judge(scene, dice, roll=Roll(tuple(values))))
    thrown = [
        SeenDie(new[i], center=(150.0 + 180 * n, 420.0), size=100)
        for n, i in enumerate(i for i in range(5) if i not in keep)
    ]
    verdict = judge(scene, [*(dice[i] for i in keep), *thrown], roll=Roll(tuple(values)))
    if 5 - len(keep) >= 2:
        assert verdict.kind == "roll"
    if verdict.kind == "roll":
        result = roll_of(verdict)
        assert verdict.held == tuple(sorted(keep))
        assert all(result.values[i] == values[i] for i in keep)


# --- frame sequences: the settle tracker, the worker and the session together -----------------------

ZONE = vision.HoldZone(0, HOLD_FRACTION * 720, 1280, 720)
CALIBRATION = vision.Calibration.identity((1280, 720), hold_zone=ZONE)
SPOTS = [(200.0, 200.0), (450.0, 260.0), (700.0, 180.0), (950.0, 300.0), (1150.0, 150.0)]
HOLD_SPOTS = [(200.0, 650.0), (420.0, 650.0), (640.0, 650.0), (860.0, 650.0), (1080.0, 650.0)]


class Table:
    """A synthetic table whose dice stay where they are put; ``frame()`` is what the camera sees."""

    def __init__(self) -> None:
        self.values: list[int] = []
        self.spots: list[tuple[float, float]] = []
        self.held: list[bool] = []
        self.angles: list[float] = []

    def lay(self, values, spots, held=None, angles=None) -> None:
        self.values, self.spots = list(values), list(spots)
        self.held = list(held or [False] * len(values))
        self.angles = list(angles or [10.0] * len(values))

    def frame(self, hand: bool = False) -> np.ndarray:
        frame, _ = render_dice_scene(
            self.values,
            rng=np.random.default_rng(1),
            held=self.held,
            positions=self.spots,
            angles=self.angles,
            die_size=76,
            style=0,
        )
        if hand:  # a hand passing over part of the tray
            frame[100:500, 300:800] = (25, 35, 45)
        return frame


class Camera:
    def __init__(self) -> None:
        self.frame: np.ndarray | None = None
        self.seq = 0
        self.lost = False

    def latest(self):
        if self.lost or self.frame is None:
            return None
        self.seq += 1
        return self.frame, self.seq


class Rig:
    """The app with a worker reading the table through the real tracker and reader."""

    def __init__(self, make_app, *, start: bool = True) -> None:
        self.app = make_app()
        self.table = Table()
        self.camera = Camera()
        self.now = 0.0
        self.worker = VisionWorker(
            self.camera,
            vision.SettleTracker(calibration=CALIBRATION),
            self.app.post,
            calibration=CALIBRATION,
            clock=lambda: self.now,
        )
        self.app.camera = self.worker
        if start:
            self.start()

    def start(self) -> None:
        tap(self.app, "Generał (classic)")
        tap(self.app, "Start")

    def show(self, frame: np.ndarray, frames: int = 10) -> None:
        self.camera.frame = frame
        for _ in range(frames):
            self.now += 0.05
            self.worker.process_latest()
        self.app.step()

    def settle(self, hand: bool = False) -> None:
        if hand:
            self.show(self.table.frame(hand=True), frames=3)
        self.show(self.table.frame())

    @property
    def session(self):
        return self.app.session


@pytest.fixture
def rig(make_app) -> Rig:
    rig = Rig(make_app)
    rig.table.lay((3, 3, 5, 1, 6), SPOTS)
    rig.settle()  # the dice as they lie before anyone throws: not a roll
    assert rig.session.rolls_used == 0
    rig.table.lay((2, 4, 4, 6, 1), [(x + 60, y + 200) for x, y in SPOTS], angles=[30.0] * 5)
    rig.settle()
    assert rig.session.rolls_used == 1 and sorted(rig.session.dice.values) == [1, 2, 4, 4, 6]
    return rig


def test_frames_holding_a_die_is_not_a_roll_and_marks_the_die(rig: Rig) -> None:
    dice = rig.session.dice.values
    rig.table.spots[3], rig.table.held[3] = HOLD_SPOTS[3], True
    rig.settle()
    assert rig.session.rolls_used == 1
    (slot,) = rig.session.held_now()
    assert dice[slot] == rig.table.values[3]
    rig.app.step()
    held_marks = [d for d in rig.app.canvas.log if d.kind == "die"]
    assert len(held_marks) == 5


def test_frames_a_hand_over_the_tray_and_a_nudge_are_not_rolls(rig: Rig) -> None:
    rig.session.seen = None
    rig.settle(hand=True)
    assert rig.session.seen is not None and rig.session.seen.kind == "same"
    x, y = rig.table.spots[0]
    rig.table.spots[0] = (x + 60, y + 40)
    rig.table.angles[0] = -20.0
    rig.settle()
    assert rig.session.seen.kind == "same" and "nudged" in rig.session.seen.reason
    assert rig.session.rolls_used == 1 and rig.session.seq == 1


def test_frames_a_die_taken_out_and_put_back(rig: Rig) -> None:
    full = (list(rig.table.values), list(rig.table.spots))
    rig.table.lay(full[0][:4], full[1][:4])
    rig.settle()
    rig.table.lay(*full)
    rig.settle()
    assert rig.session.rolls_used == 1


def test_frames_a_re_roll_with_the_same_values_counts(rig: Rig) -> None:
    values = list(rig.table.values)
    rig.table.lay(values, [(x + 20, y - 100) for x, y in SPOTS], angles=[0.0] * 5)
    rig.settle()
    assert rig.session.rolls_used == 2 and sorted(rig.session.dice.values) == sorted(values)


def test_frames_lost_then_the_players_are_asked(rig: Rig) -> None:
    rig.camera.lost = True
    for _ in range(5):
        rig.now += 1.0
        rig.worker.process_latest()
    rig.camera.lost = False
    rig.table.lay((5, 5, 5, 2, 2), SPOTS, angles=[0.0] * 5)
    rig.settle()
    assert rig.session.rolls_used == 1 and rig.session.question is not None
    assert "Were the dice rolled?" in rig.app.canvas.texts()
    tap(rig.app, "Yes, a new roll")
    assert rig.session.rolls_used == 2 and sorted(rig.session.dice.values) == [2, 2, 5, 5, 5]


def test_a_throw_right_after_start_is_a_roll(make_app) -> None:
    """The dice lay on the table before the game began (the camera saw them settled): the first throw
    after Start is the first roll, however soon it settles — not taken as the dice as they lie."""
    rig = Rig(make_app, start=False)
    rig.table.lay((3, 3, 5, 1, 6), SPOTS)
    rig.settle()  # seen on the home screen: no game yet
    rig.start()
    rig.app.step()
    assert rig.session.rolls_used == 0 and rig.session.seen is not None
    assert rig.session.seen.kind == "current"
    rig.table.lay((2, 4, 4, 6, 1), [(x + 60, y + 200) for x, y in SPOTS], angles=[30.0] * 5)
    rig.settle()
    assert rig.session.rolls_used == 1 and sorted(rig.session.dice.values) == [1, 2, 4, 4, 6]


def test_dice_left_as_they_lay_at_start_are_not_a_roll(make_app) -> None:
    rig = Rig(make_app, start=False)
    rig.table.lay((3, 3, 5, 1, 6), SPOTS)
    rig.settle()
    rig.start()
    rig.settle(hand=True)  # a hand over the tray, the dice where they were
    assert rig.session.rolls_used == 0 and rig.session.seen.kind == "same"


def test_an_empty_tray_at_start_makes_the_first_dice_a_roll(make_app) -> None:
    rig = Rig(make_app, start=False)
    rig.show(rig.table.frame())  # no dice on the table
    rig.start()
    rig.table.lay((6, 6, 2, 3, 4), SPOTS)
    rig.settle()
    assert rig.session.rolls_used == 1 and sorted(rig.session.dice.values) == [2, 3, 4, 6, 6]


# --- a restart in the middle of a turn ---------------------------------------------------------------


def screen_facts(app) -> tuple[int, list[str], list[str], list[int]]:
    """What a player sees of the turn: the journal's action count, the texts, the dice row and how many
    of its dice are marked held (equal faces are interchangeable, so not which)."""
    app.step()
    dice = [d.text for d in app.canvas.log if d.kind == "die"]
    texts = [t for t in app.canvas.texts() if t.startswith(("Roll ", "Turn "))]
    held = sorted(app.session.dice.values[s] for s in app.session.held_now())
    return len(app.journal.actions(app.session.game_id)), texts, dice, held


def test_a_restart_mid_turn_reads_the_same_dice_without_a_phantom_roll(rig: Rig, make_app) -> None:
    rig.table.spots[1], rig.table.held[1] = HOLD_SPOTS[1], True
    rig.settle()
    before = screen_facts(rig.app)
    assert before[0] == 1 and "Roll 1 of 3" in before[1] and len(before[3]) == 1
    rig.app.journal.close()  # the power goes; the dice stay on the table
    again = Rig.__new__(Rig)
    again.app, again.table, again.camera, again.now = make_app(), rig.table, Camera(), 0.0
    again.worker = VisionWorker(
        again.camera,
        vision.SettleTracker(calibration=CALIBRATION),
        again.app.post,
        calibration=CALIBRATION,
        clock=lambda: again.now,
    )
    again.app.camera = again.worker
    assert again.app.screen.name == "dice_table"
    again.settle()
    assert again.session.seen is not None and again.session.seen.kind == "current"
    assert screen_facts(again.app) == before
    # ... and the turn goes on from there: the held die is matched to its slot.
    held_value = rig.table.values[1]
    rig.table.lay(
        (6, held_value, 6, 6, 6),
        [(1100.0, 120.0), HOLD_SPOTS[1], (200.0, 420.0), (500.0, 420.0), (800.0, 420.0)],
    )
    rig.table.held = [False, True, False, False, False]
    again.settle()
    assert again.session.rolls_used == 2
    (slot,) = again.session.history[-1].held
    assert again.session.dice.values[slot] == held_value


def test_the_simulator_resumes_mid_turn_without_a_phantom_roll(make_app) -> None:
    import pygame

    from device.simulator import Simulator
    from tests.device.test_simulator import key

    app = make_app()
    sim = Simulator(app, seed=11)
    start(app, "Generał (classic)")
    sim.poll()
    key(app, pygame.K_r)
    key(app, pygame.K_2)
    key(app, pygame.K_2)  # held and given back: the simulator's table after a restart is the journal's
    before = screen_facts(app)
    app.journal.close()
    again = make_app()
    Simulator(again, seed=12).poll()  # lays the journal's dice on its table and shows them
    again.step()
    assert again.session.seen.kind == "current"
    assert screen_facts(again) == before and app.session.rolls_used == 1
