"""The coach (generator/ai/review.py): exact stage-2 losses, a planted stage-1 blunder found, the duplicate
replayed from the game's AI stream, and the scoring variants counted in points."""

from __future__ import annotations

import math
import random
from functools import lru_cache

import pytest

from generator.ai import rollout
from generator.ai.hard import stage2_choice
from generator.ai.players import HUMAN, make_player, seats
from generator.ai import estimate, expert
from generator.ai.estimate import AGAIN, WORTH_LISTING, CHOOSE_DEALS, SHORTLIST, SHORTLIST_DEALS, deal_points, t95
from generator.ai.hard import WEIGHTS
from generator.ai.native import available as native_available, python_exact_value, stage1_playout
from generator.ai.review import LINE_TRICKS, Decision, Exact, ReviewError, Session, net_points
from generator.ai.solver import split
from generator.ai.stage2 import perfect_line
from generator.ai.summary import Summary, kind
from generator.engine import trace
from generator.engine.cards import parse_card
from generator.engine.game import play_game
from generator.engine.prng import Rng, ai_rng
from generator.engine.rules import HIGH, LOW, Variant, deal, hand_points, trick_winner
from generator.engine.state import HandState

LAST13 = Variant.make(52, "last13", 0)


# -- an independent referee: plain minimax over every card --------------------------------------------------

def minimax(hands: tuple[int, int], trump: int, leader: int, seat: int, want_most: bool) -> int:
    """The seat's tricks from a trick boundary, each side playing every legal card; the seat takes the most
    (the fewest when not ``want_most``), the other seat the opposite."""

    @lru_cache(maxsize=None)
    def value(h0: int, h1: int, leader: int) -> int:
        hands = [h0, h1]
        if not hands[leader]:
            return 0
        results = []
        for a in cards(hands[leader]):
            follower = 1 - leader
            hf = hands[follower]
            same = [b for b in cards(hf) if b // 13 == a // 13]
            replies = []
            for b in same or cards(hf):
                w = follower if trick_winner(a, b, trump) == 1 else leader
                nh = list(hands)
                nh[leader] ^= 1 << a
                nh[follower] ^= 1 << b
                replies.append((w == seat) + value(nh[0], nh[1], w))
            results.append(pick(replies, follower))
        return pick(results, leader)

    def pick(xs: list[int], mover: int) -> int:
        return max(xs) if (mover == seat) == want_most else min(xs)

    return value(hands[0], hands[1], leader)


def cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def referee_values(hands: list[int], trump: int, leader: int, lead: int, seat: int, mode: int) -> dict[int, int]:
    """The seat's tricks from this trick on for each legal card, perfect play after it (plain minimax)."""
    want_most = mode == HIGH
    mine = hands[seat]
    legal = [c for c in cards(mine) if lead < 0 or c // 13 == lead // 13] if lead >= 0 else cards(mine)
    legal = legal or cards(mine)
    out = {}
    for c in legal:
        h = list(hands)
        h[seat] ^= 1 << c
        if lead >= 0:
            w = seat if trick_winner(lead, c, trump) == 1 else 1 - seat
            out[c] = (w == seat) + minimax((h[0], h[1]), trump, w, seat, want_most)
            continue
        opp = 1 - seat
        same = [b for b in cards(h[opp]) if b // 13 == c // 13]
        replies = []
        for b in same or cards(h[opp]):
            hh = list(h)
            hh[opp] ^= 1 << b
            w = opp if trick_winner(c, b, trump) == 1 else seat
            replies.append((w == seat) + minimax((hh[0], hh[1]), trump, w, seat, want_most))
        out[c] = min(replies) if want_most else max(replies)
    return out


@pytest.mark.parametrize("mode", [HIGH, LOW])
def test_every_legal_card_is_valued_as_plain_minimax_values_it(mode):
    rnd = random.Random(33 + mode)
    for _ in range(60):
        n = rnd.choice((2, 3, 4))
        dealt = rnd.sample(range(52), 2 * n)
        trump, seat = rnd.randrange(4), rnd.randrange(2)
        hands = [0, 0]
        hands[seat], hands[1 - seat] = sum(1 << c for c in dealt[:n]), sum(1 << c for c in dealt[n:])
        lead = -1
        if rnd.random() < 0.5:  # the other seat has led its last dealt card
            lead = dealt[-1]
            hands[1 - seat] ^= 1 << lead
        h = [split(hands[0]), split(hands[1])]
        ex = Exact(seat, trump, mode)
        legal_mask = hands[seat]
        if lead >= 0 and any(c // 13 == lead // 13 for c in cards(hands[seat])):
            legal_mask = sum(1 << c for c in cards(hands[seat]) if c // 13 == lead // 13)
        got = ex.card_values(h, 1 - seat if lead >= 0 else seat, lead, legal_mask)
        left = n
        own = {c: v if ex.counted == seat else left - v for c, v in got.items()}
        assert own == referee_values(hands, trump, 1 - seat if lead >= 0 else seat, lead, seat, mode)


# -- a hand with planted mistakes ---------------------------------------------------------------------------

SEED, BLUNDER_TRICK = 34, 3  # trumps spades; at trick 3 the seat cannot follow clubs and holds A♠, the face-up card is 4♣
SMALL = 5  # the stage-2 plant comes where both hands hold this many cards or fewer, so minimax can referee it


def planted_hand(blunders: bool, variant: Variant = LAST13, seed: int = SEED) -> tuple[list[str], tuple[int, int] | None]:
    """A single hand: the person plays Master's stage 1 and a perfect stage 2 (the Python solver's) against
    Club, except (with ``blunders``) the trump ace thrown on a worthless trick and, late in stage 2, the
    first card that loses. Returns the trace and the planted stage-2 decision (trick, card)."""
    st = HandState(variant.deck, variant.scoring, deal(seed, 1, variant.deck))
    lines = [trace.game_header(seed, variant, (HUMAN, "original")), *trace.hand_header(st.deal, st.trump, st.mode)]
    own, cpu = Rng(seed + 1000), make_player("original", ai_rng(seed))
    ace = 13 * st.trump + 12
    planted = None
    while not st.is_over():
        p, obs, legal = st.turn, st.observation(st.turn), st.legal_mask()
        if p == 1:
            c = cpu.choose(obs, legal)
        elif st.stock_left:
            c = rollout.choose(obs, legal, own, judged=False)  # the rule before the judge: the hand tested
            if blunders and st.trick_number == BLUNDER_TRICK:
                assert legal >> ace & 1 and c != ace and st.lead // 13 != st.trump
                assert not legal & (0x1FFF << 13 * (st.lead // 13))  # void in the led suit
                c = ace
        else:
            c = stage2_choice(obs, None).card
            if blunders and planted is None and st.hands[0].bit_count() <= SMALL:
                values = referee_values(list(st.hands), st.trump, st.leader, st.lead, 0, st.mode)
                worse = [x for x in values if values[x] < max(values.values())]
                if worse:
                    c, planted = worse[0], (st.trick_number, worse[0])
        done = st.apply(c)
        if done:
            lines.append(trace.trick_line(done))
    tricks = st.counted_tricks()
    pts = hand_points(variant.scoring, variant.deck, st.mode, tricks)
    lines += [trace.score_line(tricks, pts, pts), trace.end_line(-1 if pts[0] == pts[1] else pts.index(max(pts)), pts)]
    return lines, planted


def review_of(lines: list[str], **kw):
    session = Session(**kw)
    got = [session.feed(n, line) for n, line in enumerate(lines, 1)]
    session.close()
    reviews = [g for g in got if g is not None and not isinstance(g, str)]
    assert len(reviews) == 1
    return reviews[0]


@pytest.fixture(scope="module")
def planted():
    lines, plant = planted_hand(blunders=True)
    return lines, plant, review_of(lines)


def test_the_planted_stage2_card_is_the_only_loss_and_loses_what_minimax_says(planted):
    _, (trick, card), review = planted
    losses = [(d.trick, d.card, d.lost_tricks) for d in review.stage2 if d.lost_tricks]
    d = next(d for d in review.stage2 if d.trick == trick)
    want = referee_values([d.hand, d.other], review.trump, 0 if d.lead < 0 else 1, d.lead, 0, review.mode)
    assert losses == [(trick, card, max(want.values()) - want[card])]
    assert d.values == {c: float(v) for c, v in want.items()}
    # the points: last13 counts stage 2 only; the hand's outcome with the best card against the one played
    left = d.hand.bit_count()

    def net(t: int) -> int:
        return net_points(LAST13, review.mode, 0, (d.tricks[0] + t, d.tricks[1] + left - t))

    assert d.lost_points == net(max(want.values())) - net(want[card]) >= 1
    assert review.lost_tricks == losses[0][2] and review.lost(2) == d.lost_points


def test_the_planted_stage1_blunder_is_found_with_an_interval_above_nothing(planted):
    _, _, review = planted
    d = next(d for d in review.stage1 if d.trick == BLUNDER_TRICK)
    assert d.card == parse_card("AS") and d.mistake
    lo, hi = d.interval
    assert d.lost_points >= 0.25 and d.sure and 0 < lo <= d.lost_points <= hi
    assert parse_card("AS") not in d.best
    assert d in review.costliest()


@pytest.mark.parametrize("seed", [4, 8])
def test_a_perfect_stage2_shows_no_loss(seed):
    lines, plant = planted_hand(False, Variant.make(28, "last13", 0), seed)
    assert plant is None
    review = review_of(lines, duplicate=False)
    assert any(len(set(d.values.values())) > 1 for d in review.stage2)  # a card could have lost a trick
    assert not [d for d in review.stage2 if d.mistake] and review.lost_tricks == 0
    assert all(d.card in d.best for d in review.stage2)


# -- the duplicate: the game's AI stream, hand after hand ----------------------------------------------------

def test_master_reviewed_in_its_own_seat_replays_its_own_hands_exactly():
    """Master in Master's seat against the same opponent is the same game: the stream is followed across hands."""
    variant = Variant.make(28, "last13", 10)
    lines = play_game(11, variant, seats(11, ("hard", "easy"))).lines
    session = Session(seat=0)
    reviews = [r for n, line in enumerate(lines, 1) if (r := session.feed(n, line)) is not None]
    assert len(reviews) >= 2
    for r in reviews:
        assert r.duplicate is not None, r.no_duplicate
        assert (r.duplicate.tricks, r.duplicate.points) == (r.tricks, r.points)


def test_a_computer_seat_that_does_not_play_its_level_gets_no_duplicate():
    variant = Variant.make(28, "last13", 0)
    lines = play_game(5, variant, seats(5, ("greedy", "easy"))).lines
    lines[0] = lines[0].replace("p0=greedy", "p0=hard")  # the trace claims Master played seat 0
    r = review_of(lines, seat=1)
    assert r.duplicate is None and "do not follow its level" in r.no_duplicate


# -- scoring variants ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("scoring, deck, mode, tricks, net", [
    ("last13", 52, HIGH, (7, 6), 1), ("last13", 52, HIGH, (6, 7), -1), ("last13", 52, HIGH, (13, 0), 10),
    ("every", 52, HIGH, (15, 11), 2), ("diff", 52, HIGH, (4, 9), -5),
    ("highlow", 52, LOW, (4, 9), 3), ("highlow", 52, LOW, (9, 4), -3), ("last13", 28, HIGH, (5, 2), 2),
])
def test_net_points_follow_the_variant(scoring, deck, mode, tricks, net):
    v = Variant.make(deck, scoring, 0)
    assert net_points(v, mode, 0, tricks) == net
    assert net_points(v, mode, 1, tricks) == net  # (seat, opponent) whichever the seat


# -- the session: what it refuses and what it passes over ---------------------------------------------------

def test_a_trace_with_no_person_needs_a_seat():
    lines = play_game(3, Variant.make(28, "last13", 0), seats(3, ("greedy", "easy"))).lines
    with pytest.raises(ReviewError, match="--seat"):
        review_of(lines)
    assert review_of(lines, seat=1, duplicate=False).names == ("easy", "greedy")


def test_a_live_session_passes_over_the_demo_and_notes_a_game_it_joined_late():
    demo = play_game(3, Variant.make(28, "last13", 0), seats(3, ("easy", "easy"))).lines
    session = Session(demos=True)
    assert [session.feed(n, line) for n, line in enumerate(demo, 1)] == [None] * len(demo)
    late = Session(demos=True)
    notes = [late.feed(n, line) for n, line in enumerate(demo[1:], 1)]
    assert sum(isinstance(x, str) for x in notes) == 1 and "game" in next(x for x in notes if x)


def test_a_trace_cut_inside_a_hand_names_the_hand():
    lines = play_game(9, Variant.make(28, "last13", 10), seats(9, ("greedy", "easy"))).lines
    first = next(i for i, line in enumerate(lines) if line.startswith("score "))
    session = Session(seat=0, duplicate=False)
    for n, line in enumerate(lines[:first + 4], 1):
        session.feed(n, line)
    assert session.cut == "hand 2"
    with pytest.raises(ReviewError, match="inside hand 2"):
        session.close()


def test_a_wrong_line_is_named():
    lines = play_game(9, Variant.make(28, "last13", 0), seats(9, ("greedy", "easy"))).lines
    i = next(i for i, line in enumerate(lines) if line.startswith("trick 3 "))
    lines[i] = lines[i].replace("win=0", "win=1") if "win=0" in lines[i] else lines[i].replace("win=1", "win=0")
    with pytest.raises(ReviewError, match=f"line {i + 1}: .*does not replay"):
        review_of(lines, seat=0)


def test_a_game_continued_without_its_game_line_is_reviewed_on_from_where_it_stood():
    """The device sends a continued game's hands without its game line: a known game's next hand is read on,
    with the AI stream where it stood (the duplicate still replays Master's own hands exactly)."""
    lines = play_game(11, Variant.make(28, "last13", 15), seats(11, ("hard", "easy"))).lines  # five hands
    scores = [i for i, line in enumerate(lines) if line.startswith("score ")]
    cut, lines = scores[0] + 1, lines[:scores[2] + 1]  # three hands: the first seen whole, two continued
    first = Session(seat=0, duplicate=False)
    for n, line in enumerate(lines[:cut], 1):
        first.feed(n, line)
    saved = first.saved
    assert saved is not None and saved.next == 2
    whole = Session(seat=0)
    want = [r for n, line in enumerate(lines, 1) if (r := whole.feed(n, line)) is not None][1:]
    later = Session(seat=0, known=[saved])
    got = [r for n, line in enumerate(lines[cut:], 1) if (r := later.feed(n, line)) is not None]
    assert [(r.number, r.duplicate, r.lost_tricks) for r in got] == [(r.number, r.duplicate, r.lost_tricks) for r in want]
    assert got[0].duplicate is not None
    stranger = Session(seat=0)
    notes = [r for n, line in enumerate(lines[cut:], 1) if (r := stranger.feed(n, line)) is not None]
    assert len(notes) == 1 and "continued" in notes[0]


# -- why a stage-2 card lost, and stage 2 against perfect play from its start --------------------------------

def test_a_stage2_loss_shows_the_line_that_keeps_the_trick_and_the_trick_that_goes(planted):
    _, (trick, card), review = planted
    d = next(d for d in review.stage2 if d.trick == trick)
    leader = 0 if d.lead < 0 else 1
    want = referee_values([d.hand, d.other], review.trump, leader, d.lead, 0, review.mode)
    first = d.line[0]
    assert first.number == trick and (first.lead if first.leader == 0 else first.follow) in d.best
    assert 1 <= len(d.line) <= LINE_TRICKS
    h = [split(d.hand), split(d.other)]
    best = perfect_line(h, review.trump, review.mode, trick, leader, d.lead, min(d.best))
    played = perfect_line(h, review.trump, review.mode, trick, leader, d.lead, card)
    assert best[:LINE_TRICKS] == d.line
    assert sum(t.winner == 0 for t in best) == max(want.values())  # the line is perfect play: it takes what minimax says
    assert sum(t.winner == 0 for t in played) == want[card]
    lost, kept = d.lost_at, d.kept_at
    assert lost in played and lost.number >= trick and lost.winner == 1
    i = played.index(lost)
    assert best[i] == kept and kept.number == lost.number and kept.winner == 0  # the best line keeps that trick
    # up to the lost trick the best line is ahead by one, and never before it
    assert sum(t.winner == 0 for t in best[:i + 1]) - sum(t.winner == 0 for t in played[:i + 1]) == 1
    assert all(sum(t.winner == 0 for t in best[:j]) <= sum(t.winner == 0 for t in played[:j]) for j in range(i + 1))


def test_stage2_is_set_against_perfect_play_from_its_start(planted):
    lines, _, review = planted
    reader = trace.Reader()
    hand = [h for n, line in enumerate(lines, 1) if (h := reader.feed(n, line)) is not None][0]
    st = HandState(LAST13.deck, LAST13.scoring, hand.state.deal)
    for c in (c for t in hand.state.history for c in (t.lead, t.follow)):
        if not st.stock_left and st.lead < 0:
            break
        st.apply(c)
    n = st.hands[0].bit_count()
    perfect = python_exact_value([split(st.hands[0]), split(st.hands[1])], st.trump, st.leader, 0, 0)
    assert review.stage2_perfect == (perfect, n - perfect)
    assert review.stage2_took == (hand.state.won[1][0], hand.state.won[1][1])
    pts = hand_points(LAST13.scoring, LAST13.deck, st.mode, (perfect, n - perfect))
    assert review.stage2_points == pts


# -- stage 1: the plan fixed in advance, one estimate over the stage ------------------------------------------

def test_stage1_plays_the_same_deals_whatever_it_finds(planted):
    """Every candidate is played in the first deals, the shortlist in the next ones: no count depends on a
    result, and a review is the same every time."""
    lines, _, review = planted
    judged = [d for d in review.stage1 if d.values]
    assert judged
    for d in judged:
        counts = set(d.deals.values())
        assert counts <= {CHOOSE_DEALS, CHOOSE_DEALS + SHORTLIST_DEALS}
        runs = {d.values[c] for c in d.values}  # a value per candidate (the cards of a run share it)
        if CHOOSE_DEALS + SHORTLIST_DEALS in counts:
            assert d.deals[d.card] == CHOOSE_DEALS + SHORTLIST_DEALS and len(runs) > SHORTLIST
        assert d.rival >= 0 and d.rival != d.card and d.interval[0] <= d.change <= d.interval[1]
    again = review_of(lines)
    assert [(d.change, d.interval) for d in again.stage1] == [(d.change, d.interval) for d in review.stage1]


def test_the_printed_range_is_a_re_measurement_s_and_listing_asks_the_true_cost_s(planted):
    """The printed range adds a re-measurement's variance over AGAIN fresh deals to the cost's own; whether a
    card surely cost something is judged by the range of the true cost (the same Student quantile, the cost's
    own variance alone), so a listed card's printed range may reach below 0 but the true cost's may not."""
    _, _, review = planted
    judged = [d for d in review.stage1 if d.measured]
    assert judged
    for d in judged:
        lo, hi = d.interval
        assert d.again == pytest.approx(d.variance * d.measured / AGAIN)
        t = (hi - lo) / 2 / math.sqrt(d.variance + d.again)
        assert t95(2000) <= t <= t95(20) and lo + hi == pytest.approx(2 * d.change)
        if not d.picked:  # the figure is the first measuring deals': both ranges have their degrees of freedom
            assert d.sure == (d.change > t * math.sqrt(d.variance)) and not (d.sure and d.change >= WORTH_LISTING)
        assert d.mistake == d.listed and (d.sure or not d.picked) and (d.picked or not d.listed)
        assert not d.listed or d.lost_points >= WORTH_LISTING  # a listed card's figure holds what it is listed for


def test_a_listed_card_s_figure_comes_from_deals_played_after_it_was_picked_out(monkeypatch):
    """A card picked out by its measuring deals is measured again: the cost shown is the mean difference over
    the last deals played, the rival and the card played in each, not over the deals that picked it out."""
    calls: list[tuple[int, int]] = []
    noise = random.Random(3)

    def fake(obs, theirs, stock, first, variant):
        calls.append((first, v := (3 if first == best else 0) + noise.randint(-4, 4)))
        return v

    st = HandState(LAST13.deck, LAST13.scoring, deal(11, 1, LAST13.deck))
    obs = st.observation(st.turn)
    cands = expert.candidates(obs, st.legal_mask())
    played, best = cands[0], cands[-1]
    monkeypatch.setattr(estimate, "deal_points", fake)
    m = estimate.measure(st, st.turn, played, cands, Rng(1), LAST13)
    assert m.rival == best and m.picked and m.listed and m.sure
    pairs = [(calls[i][1], calls[i + 1][1]) for i in range(len(calls) - 4 * m.measured, len(calls), 2)]
    first, again = pairs[:m.measured], pairs[m.measured:]
    assert [c for c, _ in calls[-2 * m.measured:]] == [best, played] * m.measured
    assert m.cost == pytest.approx(sum(a - b for a, b in again) / m.measured)
    assert m.cost != pytest.approx(sum(a - b for a, b in first) / m.measured)
    assert m.low < m.cost < m.high


def test_a_picked_card_whose_fresh_figure_falls_under_the_bar_is_not_listed(monkeypatch):
    """The rival is 3 points better in the deals that pick the card out and no better in the fresh ones: the
    card is picked out but not listed, so no listed card ever prints less than it was listed for."""
    calls: list[int] = []

    def fake(obs, theirs, stock, first, variant):
        calls.append(first)
        return 3 if first == best and len(calls) <= picking else 0

    st = HandState(LAST13.deck, LAST13.scoring, deal(11, 1, LAST13.deck))
    cands = expert.candidates(st.observation(st.turn), st.legal_mask())
    played, best = cands[0], cands[-1]
    shortlist = SHORTLIST_DEALS * (1 + SHORTLIST) if len(cands) - 1 > SHORTLIST else 0
    picking = CHOOSE_DEALS * len(cands) + shortlist + 2 * estimate.FEWEST  # the choosing and measuring deals
    monkeypatch.setattr(estimate, "deal_points", fake)
    m = estimate.measure(st, st.turn, played, cands, Rng(1), LAST13)
    assert m.rival == best and m.sure and m.picked and len(calls) > picking
    assert m.cost == 0 and not m.listed
    assert m.measured == estimate.FEWEST  # clear of the bar at once: no more deals


def test_a_picked_card_measured_again_at_the_bar_is_measured_on_to_the_most(monkeypatch):
    """The rival is 3 points better in the deals that pick the card out, then a quarter point better on
    average: the fresh figure's range never clears the bar, so the card is measured again in batches up to
    MOST deals, and listed, its figure the bar's."""
    calls: list[int] = []
    again = [1, 0, 0, 0]  # the rival's points in the fresh deals' pairs, the card played's 0

    def fake(obs, theirs, stock, first, variant):
        calls.append(first)
        if len(calls) <= picking:
            return 3 if first == best else 0
        return again[(len(calls) - picking - 1) // 2 % 4] if first == best else 0

    st = HandState(LAST13.deck, LAST13.scoring, deal(11, 1, LAST13.deck))
    cands = expert.candidates(st.observation(st.turn), st.legal_mask())
    played, best = cands[0], cands[-1]
    shortlist = SHORTLIST_DEALS * (1 + SHORTLIST) if len(cands) - 1 > SHORTLIST else 0
    picking = CHOOSE_DEALS * len(cands) + shortlist + 2 * estimate.FEWEST
    monkeypatch.setattr(estimate, "deal_points", fake)
    m = estimate.measure(st, st.turn, played, cands, Rng(1), LAST13)
    assert m.picked and m.measured == estimate.MOST and len(calls) == picking + 2 * estimate.MOST
    assert m.cost == WORTH_LISTING and m.listed and m.low < WORTH_LISTING < m.high


def test_a_picked_card_is_measured_on_until_its_range_clears_the_bar():
    """The range of the true cost from the fresh deals (the spread pooled with the earlier deals') decides:
    a figure at the bar never clears it, one far above or below it does."""
    steady = [[0, 1] * 20]
    assert not estimate.clear_of_the_bar([1, 0, 0, 0] * 10, steady)
    assert estimate.clear_of_the_bar([2, 1] * 20, steady) and estimate.clear_of_the_bar([0, -1] * 20, steady)
    assert not estimate.clear_of_the_bar([2, -1] * 20, steady)  # 0.5 on average, but too spread to tell


def test_stage1_has_one_estimate_over_the_stage(planted):
    _, _, review = planted
    total, lo, hi = review.stage1_lost()
    counted = [d for d in review.stage1 if d.other_choice or d.mistake]
    assert all(d in counted for d in review.stage1 if d.mistake)
    assert total == pytest.approx(sum(d.change for d in counted))
    assert lo < total < hi and review.lost(1) == total
    assert hi - lo == pytest.approx(2 * 1.959964 * math.sqrt(sum(d.variance + d.again for d in counted)))


def test_t95_is_students_quantile():
    assert t95(5) == pytest.approx(2.5706, abs=0.003)
    for df, want in ((10, 2.2281), (30, 2.0423), (120, 1.9799)):
        assert t95(df) == pytest.approx(want, abs=0.0002)


# -- the session's summary ------------------------------------------------------------------------------------

def decision(stage: int, card: str, best: str, lead: str | None = None) -> Decision:
    return Decision(trick=3, stage=stage, card=parse_card(card), lead=parse_card(lead) if lead else -1, hand=0,
                    other=0, upcard=-1, tricks=(0, 0), values={}, best=[parse_card(best)])


@pytest.mark.parametrize("d, said", [
    (decision(1, "AS", "2H", lead="4C"), "a trump spent in stage 1"),
    (decision(1, "KC", "2C", lead="4C"), "a stage-1 trick taken that was better lost"),
    (decision(1, "2C", "KC", lead="4C"), "a stage-1 trick let go that was worth taking"),
    (decision(1, "KH", "2C"), "a stage-1 lead"),
    (decision(2, "KH", "2C"), "a stage-2 lead"),
    (decision(2, "2H", "3D", lead="4C"), "a stage-2 discard"),
    (decision(2, "2S", "3D", lead="4C"), "a stage-2 ruff"),
])
def test_mistakes_are_told_by_kind(d, said):
    assert kind(d, parse_card("2S") // 13) == said  # spades are trumps


def test_a_summary_adds_up_the_hands(planted):
    _, _, review = planted
    s = Summary()
    s.add(review)
    s.add(review)
    total, lo, hi = review.stage1_lost()
    assert s.hands == 2 and s.stage1 == pytest.approx(2 * total) and s.stage2 == 2 * review.lost(2)
    slo, shi = s.stage1_range()
    assert shi - slo == pytest.approx((hi - lo) * 2 ** 0.5)  # two hands' independent deals: the range grows by root 2
    top = s.costliest()
    assert sum(k.times for _, k in s.kinds.items()) == 2 * len(review.mistakes)
    assert [k.points for _, k in top] == sorted((k.points for _, k in top), reverse=True)


def sampled_starts(variant: Variant, players: tuple[str, str], seeds: range, rng: Rng):
    """Every candidate of every stage-1 decision of the first hand of each seed's game, each in a world
    sampled as the review samples them: (the observation, the opponent's sampled cards, the stock, the card)."""
    for seed in seeds:
        lines = play_game(seed, variant, seats(seed, players)).lines
        reader = trace.Reader()
        hand = [h for n, line in enumerate(lines, 1) if (h := reader.feed(n, line)) is not None][0]
        st = HandState(variant.deck, variant.scoring, hand.state.deal)
        for c in (c for t in hand.state.history for c in (t.lead, t.follow)):
            if not st.stock_left:
                break
            obs = st.observation(st.turn)
            theirs, stock = expert.sample_world(obs, expert.void_rules(obs), rng)
            for first in expert.candidates(obs, st.legal_mask()):
                yield obs, theirs, stock, first
            st.apply(c)


@pytest.mark.parametrize("scoring", ["last13", "every", "highlow"])
def test_a_sampled_deal_is_played_as_the_game_would_play_it(scoring):
    """deal_points plays a deal on bare masks; the game's own HandState, the same rule and the exact stage 2
    must give the same points."""
    variant = Variant.make(28, scoring, 0)
    checked = 0
    for obs, theirs, stock, first in sampled_starts(variant, ("greedy", "easy"), range(1, 7), Rng(77)):
        w = expert.world_state(obs, theirs, stock)
        w.apply(first)
        while w.stock_left:
            w.apply(rollout.policy(split(w.hands[w.turn]), split(variant.deck.mask & ~w.played),
                                   w.stock[w.pos], w.trump, w.lead))
        me, n = obs.player, w.hands[0].bit_count()
        counted = me if w.mode == HIGH else 1 - me
        v = python_exact_value([split(w.hands[0]), split(w.hands[1])], w.trump, w.leader, me, counted)
        own = v if counted == me else n - v
        tricks = [w.won[1][0], w.won[1][1]]
        tricks[me] += own
        tricks[1 - me] += n - own
        if variant.scoring.counts_stage1:
            tricks = [tricks[0] + w.won[0][0], tricks[1] + w.won[0][1]]
        pts = hand_points(variant.scoring, variant.deck, w.mode, tuple(tricks))
        assert deal_points(obs, theirs, stock, first, variant) == pts[me] - pts[1 - me]
        checked += 1
    assert checked > 100


def test_the_compiled_stage1_playout_plays_the_python_rule_card_for_card():
    """native.stage1_playout (C) and rollout.python_play_out (without a compiler) end every sampled stage 1 with
    the same hands, tricks and leader, from every candidate of every stage-1 decision of 52-card hands."""
    checked = 0
    for obs, theirs, stock, first in sampled_starts(LAST13, ("greedy", "hard"), range(1, 5), Rng(5)):
        ends = []
        for play in ("c", "python"):
            h = [split(obs.hand), split(obs.opp_taken | theirs)]
            if obs.player == 1:
                h.reverse()
            live, won = split(LAST13.deck.mask & ~obs.played), list(obs.tricks[0])
            args = (h, live, [obs.upcard] + stock, obs.trump, obs.leader, obs.lead, first)
            leader = stage1_playout(*args, WEIGHTS, won) if play == "c" else rollout.python_play_out(*args, won)
            ends.append((h, live, won, leader))
        assert ends[0] == ends[1]
        checked += 1
    assert checked > 200
