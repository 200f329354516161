"""Zatre invariants (Hypothesis): the placement generator and ``place`` agree with a brute-force
oracle, cards are conserved, a game replays from its JSON actions, refused actions change nothing."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass

from hypothesis import event, given, settings
from hypothesis import strategies as st

import rules
from rules import IllegalAction, actions_from_json, actions_to_json
from rules.zatre import Board, Card, Lay, Placement, ZatreOptions, ZatreState, new_game, place, random_lay
from rules.zatre.moves import card_forms, legal_placements

NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def oracle(board: Board, placement: Placement) -> tuple[str | None, list[int]]:
    """The rules read literally: the refusal code (or None) and the sorted totals of scored rows."""
    cells = board.cells
    new = dict(placement.cells)
    if any(cell in cells for cell in new):
        return "overlap", []
    if cells and not any((x + dx, y + dy) in cells for x, y in new for dx, dy in NEIGHBOURS):
        return "not_touching", []
    merged = {**cells, **new}
    rows: dict[tuple[int, frozenset[tuple[int, int]]], int] = {}
    for x, y in new:
        for dx, dy in ((1, 0), (0, 1)):
            run = [(x, y)]
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while (cx, cy) in merged:
                    run.append((cx, cy))
                    cx, cy = cx + sign * dx, cy + sign * dy
            rows[(dx, frozenset(run))] = sum(merged[c] for c in run)
    totals = list(rows.values())
    if max(totals) >= 13:
        return "row_too_high", []
    return None, sorted(t for t in totals if 10 <= t <= 12)


@dataclass
class Game:
    state: ZatreState
    actions: list[Lay]
    rng: random.Random


@st.composite
def games_in_play(draw: st.DrawFn, max_lays: int = 60) -> Game:
    """A game after a random number of random legal lays."""
    options = ZatreOptions(players=draw(st.integers(2, 4)), seed=draw(st.integers(0, 2**32)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    state = new_game(options)
    actions = []
    for _ in range(draw(st.integers(0, max_lays))):
        if state.turn is None:
            break
        action = random_lay(state, rng)
        actions.append(action)
        state = state.apply(action)
    return Game(state, actions, rng)


def board_box(board: Board, margin: int) -> tuple[range, range]:
    xs = [x for x, _ in board.cells] or [0]
    ys = [y for _, y in board.cells] or [0]
    return range(min(xs) - margin, max(xs) + margin + 1), range(min(ys) - margin, max(ys) + margin + 1)


@settings(max_examples=30)
@given(games_in_play())
def test_the_generator_yields_exactly_the_legal_placements(game: Game) -> None:
    state = game.state
    if state.turn is None or state.first_turn:
        return
    hand = state.hands[state.turn]
    generated = legal_placements(state.board, hand)
    assert len(generated) == len(set(generated))
    xs, ys = board_box(state.board, 2)
    expected = {
        Placement(form, x, y, o)
        for form in card_forms(hand)
        for x in xs
        for y in ys
        for o in ("H", "V")
        if oracle(state.board, Placement(form, x, y, o))[0] is None
    }
    assert set(generated) == expected
    for placement in generated:
        _, scoring = place(state.board, placement)
        assert sorted(scoring.rows) == oracle(state.board, placement)[1]


@given(
    games_in_play(),
    st.integers(-3, 3),
    st.integers(-3, 3),
    st.sampled_from(("H", "V")),
    st.integers(0, 6),
    st.integers(0, 6),
    st.randoms(use_true_random=False),
)
def test_place_refuses_exactly_the_illegal_placements(
    game: Game, dx: int, dy: int, orientation: str, a: int, b: int, pick: random.Random
) -> None:
    board = game.state.board
    x, y = pick.choice(sorted(board.cells)) if board.cells else (0, 0)
    placement = Placement(Card(a, b), x + dx, y + dy, "H" if orientation == "H" else "V")
    code, rows = oracle(board, placement)
    event(code or "legal")
    try:
        new_board, scoring = place(board, placement)
    except IllegalAction as exc:
        assert exc.code == code
        assert str(placement) in exc.message
    else:
        assert code is None and sorted(scoring.rows) == rows
        assert new_board.cells == {**board.cells, **dict(placement.cells)}
        assert all(line.total <= 12 for line in new_board.lines())


@settings(max_examples=40)
@given(games_in_play(max_lays=120))
def test_cards_are_conserved(game: Game) -> None:
    state, replayed = game.state, new_game(game.state.options)
    deck = Counter(state.options.cards())
    round_one_aside = Counter(replayed.set_aside)
    for action in game.actions:
        replayed = replayed.apply(action)
        held = [c for cards in (*replayed.hands, *replayed.piles) for c in cards]
        in_round = Counter(c.key for c in (*replayed.board.cards, *held))
        assert sum(in_round.values()) == 25 or replayed.turn is None
        if replayed.turn is None:
            break
        if replayed.round == 1:
            assert in_round == round_one_aside
        else:
            assert in_round + Counter(replayed.set_aside) == deck
    for result in state.rounds_played:
        assert len(result.board.placements) + len(result.left_out) == 25


@settings(max_examples=40)
@given(games_in_play(max_lays=120))
def test_a_game_replays_from_its_json_actions(game: Game) -> None:
    actions = actions_from_json(actions_to_json(game.actions))
    assert actions == game.actions
    options = ZatreOptions.from_dict(game.state.options.to_dict())
    assert rules.replay(options, actions) == game.state


@given(games_in_play(), st.integers(0, 3), st.integers(-2, 2), st.integers(-2, 2))
def test_refused_actions_leave_the_state_unchanged(game: Game, kind: int, dx: int, dy: int) -> None:
    state = game.state
    if state.turn is None:
        return
    before = copy.deepcopy(state)
    hand = state.hands[state.turn]
    count = 2 if state.first_turn else 1
    card = hand[0]
    if kind == 0:  # a card the player does not hold
        card = next(c for c in state.options.cards() if c not in hand)
    placements = tuple(Placement(card, dx + i, dy, "H") for i in range(0, 2 * count, 2))
    if kind == 1:  # one card too many or too few
        placements = placements + placements if count == 1 else placements[:1]
    if kind == 2 and state.board.cells:  # on top of a laid card
        x, y = next(iter(state.board.cells))
        placements = (Placement(card, x, y, "V"), *placements[1:])
    try:
        after = state.apply(Lay(placements))
    except IllegalAction:
        assert state == before and state.board.cells == before.board.cells
        assert state.hands == before.hands and state.sheets == before.sheets
    else:
        # The lay that ends a round leaves its table in rounds_played; the next round starts empty.
        board = after.board if after.round == state.round else after.rounds_played[-1].board
        assert after != state and len(board.placements) == len(state.board.placements) + count
