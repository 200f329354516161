"""The vision worker posts one reading per settle, keeps a preview, and survives bad frames."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from device.events import Seen
from device.sessions.dice import seen_from_observation
from device.sessions.dice_events import DiceSeen
from device.vision_worker import VisionWorker
from vision.dice import DiceObservation, Die
from vision.settle import TrackerStatus

Status = TrackerStatus[DiceObservation]


@dataclass
class Camera:
    frames: list[np.ndarray]
    seq: int = 0

    def latest(self) -> tuple[np.ndarray, int] | None:
        if self.seq >= len(self.frames):
            return None
        self.seq += 1
        return self.frames[self.seq - 1], self.seq


@dataclass
class Tracker:
    """A :class:`SceneTracker` that says what ``script`` says of each frame fed, in turn; a reading
    asked for on request is ``reading`` (none: the test asks for none)."""

    script: list[Status]
    reading: DiceObservation | None = None
    fed: list[np.ndarray] = field(default_factory=list)

    def feed(self, frame: np.ndarray) -> Status:
        self.fed.append(frame)
        return self.script[len(self.fed) - 1]

    def read(self, frame: np.ndarray) -> DiceObservation:
        assert self.reading is not None, "a reading was asked for that the test did not expect"
        return self.reading


def observation(
    values: list[int], held: tuple[int, ...] = (), uncertain: tuple[int, ...] = ()
) -> DiceObservation:
    dice = (Die(v, (100.0 * i, 50.0), 40.0, 0.0, 0.99, held=i in held) for i, v in enumerate(values))
    return DiceObservation(tuple(dice), uncertain)


def test_one_reading_per_settle() -> None:
    frames = [np.full((720, 1280, 3), i, dtype=np.uint8) for i in range(6)]
    first = observation([1, 2, 3, 4, 5])
    second = observation([6, 6, 3, 4, 5], held=(2, 3, 4))
    script = [
        Status("rolling"),
        Status("settled", first),
        Status("settled", first),
        Status("rolling"),
        Status("settled", second),
        Status("empty"),
    ]
    posted: list[Seen] = []
    worker = VisionWorker(Camera(frames), Tracker(script), posted.append)
    while worker.process_latest():
        pass
    assert posted == [Seen(first), Seen(second)]
    read = posted[1].observation
    assert isinstance(read, DiceObservation)
    seen = seen_from_observation(read)
    assert isinstance(seen, DiceSeen) and [d.held for d in seen.dice] == [
        False,
        False,
        True,
        True,
        True,
    ]
    view = worker.view()
    assert view is not None and view.image.shape == (270, 480, 3) and view.frame_size == (1280, 720)
    assert view.state == "empty"


def test_settled_since_a_frame_is_seen_only_once_its_reading_is_posted() -> None:
    frames = [np.full((72, 128, 3), i, dtype=np.uint8) for i in range(4)]
    first = observation([1, 2, 3, 4, 5])
    script = [Status("rolling"), Status("rolling"), Status("settled", first), Status("settled", first)]
    seen_when_posted: list[bool] = []
    worker: VisionWorker = VisionWorker(
        Camera(frames), Tracker(script), lambda event: seen_when_posted.append(worker.settled_since(1))
    )
    worker.process_latest()
    worker.process_latest()
    assert not worker.settled_since(1)  # frame 2 read, still rolling
    worker.process_latest()
    # while the reading was posted the worker did not yet say settled; once posted it does
    assert seen_when_posted == [False] and worker.settled_since(1) and worker.settled_since(2)
    assert not worker.settled_since(3)  # nothing newer than frame 3 read yet
    worker.process_latest()
    assert worker.settled_since(3) and seen_when_posted == [False]


def test_unsure_dice_are_marked() -> None:
    seen = seen_from_observation(observation([1, 2, 3, 4, 5], uncertain=(1, 3)))
    assert [d.uncertain for d in seen.dice] == [False, True, False, True, False]
    assert not seen.certain


def test_the_thread_keeps_going_after_a_bad_frame() -> None:
    frames = [np.zeros((10, 10), dtype=np.uint8), np.zeros((720, 1280, 3), dtype=np.uint8)]
    posted: list[Seen] = []
    settled = Status("settled", observation([2, 2, 2, 2, 2]))
    worker = VisionWorker(
        Camera(frames), Tracker([Status("rolling"), settled]), posted.append, interval=0.001
    )
    worker.start()
    try:
        for _ in range(500):
            if posted:
                break
            worker._stop.wait(0.01)
    finally:
        worker.stop()
    assert len(posted) == 1


def test_the_hold_zone_is_drawn_where_the_calibration_puts_it() -> None:
    from device.camera_view import ViewZone
    from device.vision_worker import zones_of
    from vision.calibration import Calibration, HoldZone

    # A calibration whose play area starts 100 px right of the frame's left edge.
    shifted = ((1.0, 0.0, -100.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    calibration = Calibration(shifted, (640, 480), HoldZone(0, 400, 640, 480))
    ((zone,),) = (zones_of(calibration, ("hold",)),)
    assert zone.name == "hold"
    assert [tuple(round(v) for v in c) for c in zone.corners] == [
        (100, 400),
        (740, 400),
        (740, 480),
        (100, 480),
    ]
    assert zones_of(Calibration(shifted, (640, 480)), ("hold",)) == ()
    assert zones_of(calibration, ()) == () and zones_of(None, ("hold",)) == ()
    assert isinstance(zone, ViewZone)


def test_a_reading_on_request_is_posted_whether_or_not_the_scene_settled() -> None:
    frames = [np.full((720, 1280, 3), 7, dtype=np.uint8)]
    read = observation([3, 3, 3, 3, 3])

    posted: list[Seen] = []
    worker = VisionWorker(Camera(frames), Tracker([Status("rolling")], read), posted.append)
    worker.request()
    assert worker.process_latest()
    assert posted == [Seen(read, kind="requested")]


def test_a_reading_asked_for_while_things_move_waits_for_the_still_scene() -> None:
    frames = [np.full((720, 1280, 3), i, dtype=np.uint8) for i in range(4)]
    moving, still = observation([1, 1, 1, 1, 1]), observation([2, 3, 4, 5, 6])

    posted: list[Seen] = []
    now = [0.0]
    script = [Status("rolling"), Status("rolling"), Status("rolling"), Status("settled", still)]
    worker = VisionWorker(Camera(frames), Tracker(script, moving), posted.append, clock=lambda: now[0])
    worker.process_latest()  # the first frame: things move
    worker.request()
    worker.process_latest()
    worker.process_latest()
    assert posted == []  # no reading of a moving scene
    worker.process_latest()
    assert posted == [Seen(still), Seen(still, kind="requested")]


def test_a_reading_asked_for_is_taken_anyway_when_the_scene_never_settles() -> None:
    frames = [np.full((720, 1280, 3), i, dtype=np.uint8) for i in range(3)]
    moving = observation([1, 1, 1, 1, 1])

    posted: list[Seen] = []
    now = [0.0]
    worker = VisionWorker(
        Camera(frames), Tracker([Status("rolling")] * 3, moving), posted.append, clock=lambda: now[0]
    )
    worker.process_latest()
    worker.request()
    worker.process_latest()
    assert posted == []
    now[0] = 10.0
    worker.process_latest()
    assert posted == [Seen(moving, kind="requested")]


def test_a_vote_reads_the_next_frames_and_posts_their_vote() -> None:
    """A request for five frames: the frame now and the next four new ones are read, and what is posted
    is the reader's vote of the five (one bad frame outvoted)."""
    frames = [np.full((720, 1280, 3), i, dtype=np.uint8) for i in range(6)]
    readings = [observation([5, 2]), observation([6, 2]), observation([6, 2]), observation([6, 2])]
    readings.append(observation([6, 2]))
    votes: list[list[DiceObservation]] = []

    class Reading(Tracker):
        def read(self, frame: np.ndarray) -> DiceObservation:
            return readings[int(frame[0, 0, 0]) - 1]

    def vote(ballot: Sequence[DiceObservation]) -> DiceObservation:
        votes.append(list(ballot))
        return ballot[-1]

    posted: list[Seen] = []
    script = [Status("settled", readings[0])] * 6
    worker = VisionWorker(Camera(frames), Reading(script), posted.append, vote=vote)
    worker.process_latest()
    posted.clear()
    worker.request(5)
    for _ in range(4):
        worker.process_latest()
        assert posted == []  # still reading the frames of the vote
    worker.process_latest()
    assert votes == [readings] and posted == [Seen(readings[-1], kind="requested")]


def test_a_vote_of_real_tile_readings_outvotes_one_bad_frame() -> None:
    from device.sessions.rummikub_sim import laid_out
    from rules.rummikub import parse_tiles
    from vision.tile_vote import vote_tiles

    bad = laid_out([parse_tiles("B6 B7 K7")])
    good = laid_out([parse_tiles("B6 B7 B8")])
    voted = vote_tiles([bad, good, good, good, good])
    assert str(voted) == "melds [B6 B7 B8] loose []" and voted.certain
    split = vote_tiles([bad, bad, good, good, good])  # three to two: not decided, the players pick
    assert split.uncertain == (2,) and str(split.tiles[2].tile) == "B8"


def test_a_frame_that_missed_a_tile_does_not_lay_the_vote_out() -> None:
    from device.sessions.rummikub_sim import laid_out
    from rules.rummikub import parse_tiles
    from vision.tile_vote import vote_tiles

    missed = laid_out([parse_tiles("B6 B7")])
    whole = laid_out([parse_tiles("B6 B7 B8")])
    voted = vote_tiles([missed, whole, whole])
    assert str(voted) == "melds [B6 B7 B8] loose []" and voted.certain


def test_stop_waits_for_the_frame_being_read() -> None:
    """A reading slower than the 2 s stop() used to wait (aarch64 under emulation): stop() returns only
    once the thread is out of the reader, so the process never exits while OpenCV works in it."""
    import threading
    import time

    entered, finished = threading.Event(), threading.Event()

    class SlowTracker(Tracker):
        def feed(self, frame: np.ndarray) -> Status:
            entered.set()
            time.sleep(2.5)
            finished.set()
            return Status("rolling")

    frames = [np.zeros((72, 128, 3), dtype=np.uint8)]
    worker = VisionWorker(Camera(frames), SlowTracker([]), lambda e: None, interval=0.001)
    worker.start()
    assert entered.wait(10)
    worker.stop()
    assert finished.is_set() and not worker._thread.is_alive()
