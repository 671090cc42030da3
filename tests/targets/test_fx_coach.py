"""The FX edition's coach: stage 2 judged on the device exactly as `whist review` judges it.

A hand is played on the FX table through the buttons in the emulator, seat 0's stage-2 cards
deliberately poor (the lowest it may play), so that some lose tricks (7 in deal COACH_DEAL: two pages;
4 in a low hand of High/low, where the review counts the opponent's tricks). After the hand, the coach's
pages (DOWN from the scoreboard) are read off the screen, cards and all, and compared line for line
with the review's stage-2 judgement of the hand's trace (generator/ai/review.py): the same tricks,
the same cards played, and each card the device says kept the trick one of the review's best cards.
A card that lost more than one trick says how many ("lost 3, best 8H"), and the scoreboard says first
what the stage-2 cards cost ("4 cards cost 7 tricks (DOWN)"). On the first stage-2 turn the coach's tip
shows with the notice, and the hint (DOWN, at Club) marks exactly the review's best cards there; at Pro
DOWN says there is no hint; a perfect stage 2 (the FX Master's cards) gets "Perfect stage 2!" on the
scoreboard and "No stage-2 card lost a trick" on the coach's page.
"""

from __future__ import annotations

import pytest

from conftest import needs_firmware
from generator.ai.players import make_player
from generator.ai.review import Decision, Reviewer
from generator.engine.cards import card_name, parse_card
from generator.engine.display import COACH, COACH_LINES
from generator.engine.prng import Rng
from generator.engine.state import Observation
from generator.engine.trace import Reader, parse_header
from generator.targets.buttons import Device, Human, PoorStage2, booted
from generator.targets.screenshots import COACH_DEAL, ask_hint, coach_hand
from generator.targets.screentext import lit, read

pytestmark = needs_firmware
LOW_DEAL = 7  # High/low scoring: a low hand, in which the poor stage 2 loses 4 tricks (fewest tricks win)
# Small Whist's (stage 2 is 7 tricks: one page of the coach): Last 7, the poor stage 2 loses 4 tricks
# one by one; High/low, a low hand where it loses 3 cards and 7 tricks (3, 2 and 2)
SMALL_DEAL, SMALL_LOW_DEAL = 7, 21

CARD_W = 16  # firmware/table.cpp
CORNER = [(dx, dy) for dx in range(1, 8) for dy in range(1, 16)]  # a card's corner, as the hint inverts it


def review_stage2(lines: list[str]) -> list[Decision]:
    """`whist review`'s stage-2 decisions for seat 0 (the person) of the trace's first hand."""
    seed, variant, names = parse_header(lines[0])
    reader = Reader()
    played = None
    for n, line in enumerate(lines, 1):
        played = reader.feed(n, line) or played
    assert played is not None, "no whole hand in the trace"
    return Reviewer(seed, variant, names, seat=0, duplicate=False).review(played).stage2


def coach_pages(dev: Device) -> list[str]:
    """From the scoreboard, DOWN through the coach's pages and back to the scoreboard: every line shown."""
    scoreboard = read(dev.emu.screen(), 58)
    lines: list[str] = []
    for _ in range(4):
        dev.tap("DOWN")
        picture = dev.emu.screen()
        assert read(picture, 0) == COACH["title"]
        lines += [t for t in (read(picture, 10 + 8 * i, cards=True) for i in range(COACH_LINES)) if t]
        if read(picture, 58) == COACH["back"]:
            break
        assert read(picture, 58) == COACH["more"]
    dev.tap("DOWN")
    assert read(dev.emu.screen(), 58) == scoreboard
    return lines


def card_x(i: int, n: int) -> int:
    """Left edge of the i-th of n cards in the hand (table.cpp's layout)."""
    step = 9 if n > 12 else 10
    return (128 - CARD_W - step * (n - 1)) // 2 + i * step


def marked(before: bytes, after: bytes, n: int) -> list[int]:
    """The hand's positions that the hint marked: the card's rank-and-suit corner inverted."""
    out = []
    for i in range(n):
        x = card_x(i, n)
        for y in (40, 35, 32, 45):  # as dealt, raised, armed, lowered (table.cpp)
            if all(lit(after, x + dx, y + dy) != lit(before, x + dx, y + dy) for dx, dy in CORNER):
                out.append(i)
                break
    return out


@pytest.mark.parametrize("game_row,deal,scoring,lost", [
    (1, SMALL_DEAL, 0, 4), (1, SMALL_LOW_DEAL, 3, 3),
    pytest.param(0, COACH_DEAL, 0, 7, marks=pytest.mark.slow), pytest.param(0, LOW_DEAL, 3, 4, marks=pytest.mark.slow)],
    ids=["small high", "small low", "high", "low"])
def test_the_coach_judges_stage_2_as_the_review_does(fx_hex, fx_image, game_row, deal, scoring, lost):
    """A single hand at Club: Small Whist in `make test` (one page of the coach), Classic 52 in `make
    longtest` (two pages); Last 13 (7), or High/low (a low hand, where a card can lose several tricks)."""
    low = scoring == 3
    with booted(fx_hex, fx=fx_image) as dev:
        game = coach_hand(dev, PoorStage2(), {"game": game_row, "scoring": scoring}, deal)
        size = game.variant.deck.hand_size
        game.play_hand(tricks=size)  # stage 1
        dev.wait_turn()
        lead = game.lines[game.next].split()[2]  # "0:card" when the person leads, else the computer's lead
        order = game.aim(None if lead.startswith("0:") else parse_card(lead[2:]))
        tops = set()
        for _ in range(140):  # the notice, and in turn with it the tip (once after power-on)
            dev.run(1)
            tops.add(read(dev.emu.screen(), 0))
        assert COACH["tip"] in tops, tops
        before = dev.emu.screen()
        assert ask_hint(dev)
        after = dev.emu.screen()
        hinted = {order[i] for i in marked(before, after, len(order))}
        dev.waiting = True  # the turn is still on: play_hand presses on
        game.play_hand()
        dev.wait_serial("score ")
        dev.wait_screen("hand_end")
        dev.read()
        said = read(dev.emu.screen(), 52)
        shown = coach_pages(dev)
    decisions = review_stage2(game.device_lines())
    assert hinted == set(decisions[0].best)
    losses = [d for d in decisions if d.mistake]
    assert len(losses) == lost, "the deal no longer shows what it was chosen for"
    assert ("mode=low" in "\n".join(game.device_lines())) == low
    assert len(shown) == len(losses), shown
    assert said == f"{len(losses)} cards cost {sum(d.lost_tricks for d in losses)} tricks (DOWN)"
    assert any(d.lost_tricks > 1 for d in losses) == low
    for line, d in zip(shown, losses):
        head, _, rest = line.partition(": ")  # "Trick 17: 2C lost, 8H kept it" / "Trick 19: 2C lost 3, best 8H"
        words = rest.split()
        assert head == f"Trick {d.trick}", line
        assert words[0] == card_name(d.card), line
        if d.lost_tricks == 1:
            assert words[1] == COACH["lost"].strip(), line
            assert parse_card(words[2]) in d.best and " " + " ".join(words[3:]) == COACH["kept"], line
        else:
            assert words[1:4] == ["lost", f"{d.lost_tricks},", "best"], line
            assert parse_card(words[4]) in d.best, line


def test_no_hint_at_pro(fx_hex, fx_image):
    """At Pro (and Master) DOWN on a stage-2 turn marks nothing and says why: the hint is the easier
    levels' only (and no tip about it). In Small Whist (the hint and the tip ask the level, not the
    pack: firmware/app.cpp), whose stage 2 comes after 7 tricks rather than 26."""
    with booted(fx_hex, fx=fx_image) as dev:
        game = coach_hand(dev, PoorStage2(), {"game": 1, "ai": 1})  # Classic -> Small Whist, Club -> Pro
        game.play_hand(tricks=game.variant.deck.hand_size)
        dev.wait_turn()
        tops = set()
        for _ in range(140):
            dev.run(1)
            tops.add(read(dev.emu.screen(), 0))
        assert COACH["tip"] not in tops
        before = dev.emu.screen()
        dev.tap("DOWN")
        dev.run(10)
        after = dev.emu.screen()
        assert read(after, 0) == COACH["no_hint"]
        assert not marked(before, after, game.variant.deck.hand_size)


class PerfectStage2(Human):
    """Greedy in stage 1; in stage 2 the FX Master's card (hard-fx: exact, from the endgame tables)."""

    def __init__(self) -> None:
        self.exact = make_player("hard-fx", Rng(1))  # its stage 2 draws nothing from the stream

    def choose(self, obs: Observation, legal: int) -> int:
        return super().choose(obs, legal) if obs.stage == 1 else self.exact.choose(obs, legal)


@pytest.mark.parametrize("game_row", [1, pytest.param(0, marks=pytest.mark.slow)], ids=["small", "classic"])
def test_a_perfect_stage_2_lost_nothing(fx_hex, fx_image, endgame_tables, game_row):
    """Seat 0's stage 2 played perfectly: the coach's page says no card lost a trick, as the review does
    (a Small Whist hand; `make longtest` a Classic one)."""
    with booted(fx_hex, fx=fx_image) as dev:
        game = coach_hand(dev, PerfectStage2(), {"game": game_row})
        game.play_hand()
        dev.wait_serial("score ")
        dev.wait_screen("hand_end")
        dev.read()
        assert read(dev.emu.screen(), 52) == COACH["perfect"]
        dev.tap("DOWN")
        picture = dev.emu.screen()
        assert [read(picture, y) for y in (0, 10, 18, 58)] == [COACH["title"], COACH["none"], "", COACH["back"]]
    assert not any(d.mistake for d in review_stage2(game.device_lines()))
