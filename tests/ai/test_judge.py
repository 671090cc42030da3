"""The judge of the FX Master's rollouts (generator/ai/judge.py): its C twin, its fitted weights."""

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
                saved = judge.LEAD_WEIGHTS[st.mode]
                judge.LEAD_WEIGHTS[st.mode] = w
                try:
                    assert judge.python_play_on(h1, st.trump, st.leader, st.mode, stop, won1) == end
                finally:
                    judge.LEAD_WEIGHTS[st.mode] = saved
                assert (h1, won1) == (h2, won2)


def test_the_shipped_weights_fit_a_byte_and_lead_better_than_none(starts) -> None:
    """Each weight within -127..127 (the device's int8_t); on leads the fit never saw, the shipped weights
    lose fewer tricks against perfect play than leading the first candidate (all weights zero)."""
    situations = judge_fit.lead_situations(starts)
    for mode, w in judge.LEAD_WEIGHTS.items():
        assert len(w) == judge.SIZE and all(-127 <= x <= 127 for x in w)
        assert judge_fit.mean_loss(w, situations[mode]) < judge_fit.mean_loss((0,) * judge.SIZE, situations[mode])


def test_the_fit_lowers_the_loss_it_is_fitted_to(starts) -> None:
    """Coordinate descent from zero on a few starts' leads: the loss falls, and the fit is reproducible."""
    situations = judge_fit.lead_situations(starts)[HIGH]
    w = judge_fit.fit(situations)
    assert judge_fit.mean_loss(w, situations) < judge_fit.mean_loss((0,) * judge.SIZE, situations)
    assert judge_fit.fit(situations) == w
