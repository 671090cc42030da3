"""The judge of Master's rollouts (generator/ai/judge.py): its C twin, its fitted weights, both editions' play-on."""

from __future__ import annotations

import random

import pytest

from generator.ai import judge, judge_fit
from generator.ai.native import available, judge_play_on
from generator.engine.rules import HIGH, Variant


@pytest.fixture(scope="module")
def starts() -> list[judge_fit.Start]:
    """Stage-2 starts of Master's rollouts in High/low hands the fit never saw, high and low games."""
    return list(judge_fit.rollout_starts(range(20_001, 20_005), Variant.make(52, "highlow", 0), None))


@pytest.mark.skipif(not available(), reason="no C compiler for the native solver")
def test_the_c_play_on_is_the_python_one_card_for_card(starts) -> None:
    """Random weights, both modes, played to the end and to the tables' K: the same hands, tricks and leader."""
    rnd = random.Random(5)
    assert {s.mode for s in starts} == {HIGH, 1 - HIGH}
    for _ in range(10):
        w = tuple(rnd.randint(-40, 40) for _ in range(judge.SIZE))
        for st in starts:
            for stop in (0, judge_fit.STOP):
                h1, h2, won1, won2 = st.hands(), st.hands(), [0, 0], [0, 0]
                end = judge_play_on(h2, st.trump, st.leader, st.mode != HIGH, stop, w, won2)
                table = judge.LEAD_WEIGHTS if stop else judge.PLAY_OUT_WEIGHTS
                saved = table[st.mode]
                table[st.mode] = w
                try:
                    assert judge.python_play_on(h1, st.trump, st.leader, st.mode, stop, won1) == end
                finally:
                    table[st.mode] = saved
                assert (h1, won1) == (h2, won2)


@pytest.mark.parametrize("stop", [judge_fit.STOP, 0])
def test_the_shipped_weights_fit_a_byte_and_lead_better_than_none(starts, stop) -> None:
    """Each weight within -127..127 (the device's int8_t); on leads the fit never saw (to the tables' K on
    the FX edition, to the end on the classic), the shipped weights lose fewer tricks against perfect play
    than leading the first candidate (all weights zero)."""
    situations = judge_fit.lead_situations(starts, stop)
    for mode in (HIGH, 1 - HIGH):
        w = judge.weights(mode, stop)
        assert len(w) == judge.SIZE and all(-127 <= x <= 127 for x in w)
        assert judge_fit.mean_loss(w, situations[mode]) < judge_fit.mean_loss((0,) * judge.SIZE, situations[mode])


def test_the_classic_rollout_plays_stage_2_to_the_end_by_the_judge(starts) -> None:
    """Without tables a rollout's stage 2 is the judge's play-on to the last trick: from a stage-2 start
    (no stock left) it returns the judge's tricks for the seat less the other's, which judge_value counts."""
    from generator.ai import rollout

    for st in starts:
        n = sum(m.bit_count() for m in st.h[0])
        for me in (0, 1):
            got = rollout.rollout(me, st.hands(), [a | b for a, b in zip(*st.h)], [], st.leader, -1, -1, st.trump,
                                  False, None, st.mode)
            v = judge_fit.judge_value(st)  # the leader's tricks
            assert got == (2 * v - n if me == st.leader else n - 2 * v)


def test_the_fit_lowers_the_loss_it_is_fitted_to(starts) -> None:
    """Coordinate descent from zero on a few starts' leads: the loss falls, and the fit is reproducible."""
    situations = judge_fit.lead_situations(starts)[HIGH]
    w = judge_fit.fit(situations)
    assert judge_fit.mean_loss(w, situations) < judge_fit.mean_loss((0,) * judge.SIZE, situations)
    assert judge_fit.fit(situations) == w
