"""The dice session: readings become rolls (held dice matched by value), refusals name the rule."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.sessions.dice import Correcting, roll_from_seen
from device.sessions.dice_events import SeenDie
from rules.dice import Roll
from tests.device.helpers import press, roll, seat_to_move, start, start_dice, tap

faces = st.integers(1, 6)


@given(
    previous=st.lists(faces, min_size=5, max_size=5),
    keep=st.sets(st.integers(0, 4)),
    new=st.lists(faces, min_size=5, max_size=5),
    order=st.permutations(range(5)),
)
def test_held_dice_keep_their_positions_whatever_the_reading_order(previous, keep, new, order) -> None:
    before = Roll(tuple(previous))
    after = [previous[i] if i in keep else new[i] for i in range(5)]
    seen = [SeenDie(after[i], held=i in keep) for i in order]
    result, held = roll_from_seen(seen, before)
    assert len(held) == len(keep)
    assert all(result.values[p] == before.values[p] for p in held)
    assert sorted(result.values) == sorted(after)


def test_first_roll_ignores_the_hold_zone() -> None:
    result, held = roll_from_seen([SeenDie(v, held=True) for v in (1, 2, 3, 4, 5)], None)
    assert (str(result), held) == ("1 2 3 4 5", ())


def test_a_held_die_that_changed_is_refused_by_the_rules(make_app) -> None:
    app = make_app()
    session = start_dice(app, "Generał (classic)")
    roll(app, (1, 1, 2, 3, 4))
    roll(app, (6, 6, 5, 5, 5), held=(0, 1))
    assert session.refusal is not None and session.refusal.code == "held_die_changed"
    assert session.dice is not None and session.dice.values == (1, 1, 2, 3, 4) and session.rolls_used == 1
    assert any("held die changed" in t for t in app.canvas.texts())


def test_a_fourth_roll_is_refused(make_app) -> None:
    app = make_app()
    start(app, "Generał (classic)")
    for _ in range(4):
        roll(app, (2, 3, 4, 5, 6))
    assert app.session.rolls_used == 3 and app.session.refusal.code == "too_many_rolls"


def test_only_the_current_seat_confirms(make_app) -> None:
    app = make_app()
    session = start_dice(app, "Generał (classic)")
    roll(app, (2, 3, 4, 5, 6))
    tap(app, "Large straight")
    current = seat_to_move(session)
    other = 1 - current
    press(app, other)
    assert session.refusal is not None
    assert session.refusal.code == "not_your_turn" and session.seq == 1
    # The sentence counts seats from 1 as the players do, both of them; the details stay 0-based.
    assert session.refusal.message == f"seat {other + 1} pressed during seat {current + 1}'s turn"
    assert session.refusal.details == {"seat": other, "to_move": current}
    assert any("Not your turn" in t for t in app.canvas.texts())
    press(app, 1 - other)
    assert session.game_state.sheets[1 - other].get("large_straight") == 40


def test_confirm_without_a_box_is_refused(make_app) -> None:
    app = make_app()
    start(app, "Kości (poker dice)")
    roll(app, (2, 3, 4, 5, 6))
    press(app, app.session.current_seat)
    assert app.session.refusal.code == "choose_box_first"


@pytest.mark.parametrize("values", [(1, 2, 3), (1, 2, 3, 4, 5, 6)])
def test_a_reading_without_five_dice_waits_and_says_so(make_app, values) -> None:
    # A hand lifting dice, a die off the tray: no roll, no question; the table says how many it sees.
    app = make_app()
    start(app, "Kości (poker dice)")
    roll(app, values)
    assert app.screen.name == "dice_table" and app.session.seq == 0
    assert f"{len(values)} dice seen, 5 needed" in app.canvas.texts()


def test_the_correction_marks_every_die_the_camera_was_unsure_of(make_app) -> None:
    from device.sessions.dice_events import DiceSeen

    app = make_app()
    start(app, "Kości (poker dice)")
    dice = (SeenDie(2), SeenDie(3, uncertain=True), SeenDie(None, uncertain=True), SeenDie(5), SeenDie(6))
    app.post(DiceSeen(dice))
    app.step()
    app.step()
    stage = app.session.stage
    assert app.screen.name == "correction" and isinstance(stage, Correcting)
    assert stage.unsure == [False, True, True, False, False] and stage.values == [2, 3, None, 5, 6]
    tap(app, "3")
    assert app.session.stage is stage and stage.unsure == [False, False, True, False, False]
    assert stage.values == [2, 4, None, 5, 6]
