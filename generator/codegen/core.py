"""Renders the firmware's game core (whist_core.h/.cpp) from the engine's definitions.

Every constant, table and enumeration in the generated C++ is read here from
the Python objects (cards, prng, rules, players, protocol); the templates
only say how C++ spells them.
"""

from __future__ import annotations

from math import comb

from pathlib import Path

import jinja2

from .. import __version__

from ..engine import cards, display, prng, rules

from ..ai import endgame, hard, judge, original, rollout, solver

from . import protocol, tracetext
from ..ai.players import DEVICE_PLAYERS, FIRST_LEVEL, HINT_LEVELS

TEMPLATES = Path(__file__).parent / "templates"
CORE_FILES = ("whist_core.h", "whist_core.cpp")
# Where the classic edition keeps its saves: EEPROM from here to its end, away from the
# bytes after the system's 16 where most games keep theirs (docs/firmware.md). The
# firmware checks that its blocks fill exactly that (prefs.cpp). Below them, from EEPROM_LOG, the hand's
# log (a cell for the person's card of each trick: prefs.h); the package declares EEPROM from there.
EEPROM_SAVES = 788
EEPROM_LOG = EEPROM_SAVES - 26
EEPROM_BYTES = 1024


def core_context() -> dict:
    decks = list(cards.DECKS.values())
    sizes = [d.size for d in decks]
    scorings = []
    for s in rules.SCORINGS.values():
        flags = (1 if s.counts_stage1 else 0) | (2 if s.difference else 0) | (4 if s.colour_mode else 0)
        flags |= 8 if s.slam else 0
        scorings.append({
            "name": s.name,
            "flags": flags,
            "over": [s.over[n] for n in sizes],
            "slam": [s.slam[n] if s.slam else 0 for n in sizes],
        })
    players = list(DEVICE_PLAYERS)
    d = protocol.DEFAULTS
    # each order packed into a byte, 2 bits per suit, leftmost suit lowest
    suit_orders = [
        [sum(s << (2 * i) for i, s in enumerate(display.suit_order(t, style))) for t in range(4)]
        for style in display.SUIT_ORDER_STYLES
    ]
    # the settings' win targets (the menus' names are in text.py's pack)
    menu = {"targets": list(rules.TARGETS)}
    return {
        "menu": menu,
        "source": "generator/codegen/core.py",
        "version": __version__,
        "suit_order_styles": display.SUIT_ORDER_STYLES,
        "reasons": list(display.REASONS),
        "notices": list(display.NOTICES),
        "suit_orders": suit_orders,
        "ranks": cards.RANKS,
        "suits": cards.SUITS,
        "ranks_per_suit": cards.RANKS_PER_SUIT,
        "red_suits": sum(1 << s for s in cards.RED_SUITS),
        "max_cards": max(sizes),
        "max_hand": max(d.hand_size for d in decks),
        "max_target": rules.MAX_TARGET,
        "line_max": protocol.LINE_MAX,
        "eeprom_saves": EEPROM_SAVES,
        "eeprom_log": EEPROM_LOG,
        "mark_think": protocol.MARK_THINK,
        "mark_moved": protocol.MARK_MOVED,
        "mark_turn": protocol.MARK_TURN,
        "decks": decks,
        "scorings": scorings,
        "players": players,
        "hint_levels": sum(1 << players.index(p) for p in HINT_LEVELS),
        "coach_lines": display.COACH_LINES,
        "high": rules.HIGH,
        "low": rules.LOW,
        "xorshift": prng.XORSHIFT,
        "mix_mul1": prng.MIX_MUL1,
        "mix_mul2": prng.MIX_MUL2,
        "golden": prng.GOLDEN,
        "ai_salt": prng.AI_SALT,
        "solver": {
            "budget": solver.WORK_BUDGET,
            "key_work": solver.KEY_WORK,
            "tt_min": solver.TT_MIN_TRICKS,
            "tt_size": solver.TT_SLOTS,
            "slot_mul": solver.SLOT_MUL,
            "check_mask": solver.CHECK_MASK,
            "key_mask": solver.KEY_MASK,
            "key_mul": solver.KEY_MUL,
        },
        "endgame": {
            "k": endgame.K,
            "suit": endgame.SUIT,
            "first": endgame.header_size(endgame.K) - endgame.K * (endgame.SUIT + 1) ** 2,
            "blocks": endgame.block_offsets(),
            # BINOM[j][o] = C(j + o, j + 1): what the leader's card j + 1 adds o places after card j
            "binom": [[comb(j + o, j + 1) for o in range(endgame.K + 2)] for j in range(endgame.K)],
            "probe_work": solver.PROBE_WORK,
            "budget": solver.FX_WORK_BUDGET,
        },
        "original": {
            "trump_bonus": original.TRUMP_BONUS,
            "low_below": original.LOW_BELOW,
            "high_from": original.HIGH_FROM,
        },
        "hard": {
            "w_trump": hard.WEIGHTS.trump,
            "w_want": hard.WEIGHTS.want,
            "w_spend": hard.WEIGHTS.spend,
            "easy_budget": hard.EASY_BUDGET,
        },
        "rollout": {
            "no_cap": rollout.NO_CAP,
            "classic": rollout.CLASSIC_BUDGET,
            "fx": rollout.FX_BUDGET,
            "min_worlds": rollout.MIN_WORLDS,
        },
        "judge": {
            "size": len(judge.LEAD_WEIGHTS[rules.HIGH]),
            "weights": [list(judge.LEAD_WEIGHTS[rules.HIGH]), list(judge.LEAD_WEIGHTS[rules.LOW])],
            "play_out_weights": [list(judge.PLAY_OUT_WEIGHTS[rules.HIGH]), list(judge.PLAY_OUT_WEIGHTS[rules.LOW])],
        },
        "error_code": protocol.ERROR_CODES,
        "play_keys": protocol.PLAY_KEYS,
        "kinds": tracetext.KINDS,
        "kind_char": tracetext.KIND_CHAR,
        "field_char": tracetext.FIELD_CHAR,
        "fields": tracetext.fields(),
        "default": {
            "deck": sizes.index(d["deck"]),
            "scoring": list(rules.SCORINGS).index(d["scoring"]),
            "target": d["target"],
            "player": players.index(d["player"]),
            "level": players.index(FIRST_LEVEL),
            "first_target": rules.TARGETS.index(rules.FIRST_TARGET),
        },
    }


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


def generate_core(out_dir: Path) -> list[Path]:
    """Write the game core into ``out_dir``; only files whose text changed are rewritten."""
    out_dir.mkdir(parents=True, exist_ok=True)
    env = environment()
    ctx = core_context()
    written = []
    for name in CORE_FILES:
        text = env.get_template(name + ".j2").render(ctx)
        path = out_dir / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        written.append(path)
    return written
