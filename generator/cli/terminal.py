"""``whist play``: a game against the engine in the terminal."""

from __future__ import annotations

import random

import click

from ..engine.cards import SUITS, card_name, cards_of, parse_card, rank_of, suit_of, CardError
from ..engine.game import play_hand
from ..engine.prng import ai_rng
from ..ai.players import make_player
from ..engine.rules import MODE_NAMES, Variant, game_winner, hand_points
from ..engine.state import HandState
from ..engine import trace

SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def hand_text(mask: int, trump: int) -> str:
    """The hand grouped by suit, trumps first, high cards first."""
    groups = []
    for s in [trump] + [x for x in range(4) if x != trump]:
        cs = sorted((c for c in cards_of(mask) if suit_of(c) == s), key=rank_of, reverse=True)
        if cs:
            groups.append(" ".join(card_name(c) for c in cs))
    return "  |  ".join(groups)


def run(seed: int | None, deck: int, scoring: str, target: int, opponent: str) -> None:
    if seed is None:
        seed = random.getrandbits(32)
    variant = Variant.make(deck, scoring, target)
    ai = make_player(opponent, ai_rng(seed))
    click.echo(f"German Whist, deal number {seed} ({deck} cards, {variant.scoring.title}, "
               f"target {target or 'single hand'}). You are player 0 against '{opponent}'.")
    click.echo("Type a card like QH or 10S; 'q' quits.\n")

    def choose(state: HandState, p: int) -> int:
        if p == 1:
            c = ai.choose(state.observation(1), state.legal_mask())
            click.echo(f"  computer plays {card_name(c)}")
            return c
        obs = state.observation(0)
        stage = f"stage 1, face-up card {card_name(obs.upcard)}, {obs.stock_left} in stock" if obs.stock_left else "stage 2"
        click.echo(f"\ntrick {obs.trick_number} ({stage}); trumps {SUIT_WORDS[SUITS[state.trump]]}, "
                   f"playing {MODE_NAMES[state.mode]}; tricks you {obs.tricks[1][0]} - {obs.tricks[1][1]} computer")
        click.echo(f"  your hand: {hand_text(obs.hand, state.trump)}")
        legal = state.legal_mask()
        click.echo("  you may play: " + " ".join(card_name(c) for c in cards_of(legal)))
        while True:
            text = click.prompt("  your card", default="", show_default=False).strip()
            if text.lower() in ("q", "quit"):
                raise click.exceptions.Exit(0)
            try:
                c = parse_card(text)
            except CardError as e:
                click.echo(f"  {e}")
                continue
            if legal >> c & 1:
                return c
            click.echo(f"  {card_name(c)} is not playable now")

    def show(line: str) -> None:
        if line.startswith("trick "):
            click.echo("  " + line)

    totals = (0, 0)
    number = 0
    while True:
        number += 1
        state = play_hand(variant, seed, number, choose, show)
        tricks = state.counted_tricks()
        pts = hand_points(variant.scoring, variant.deck, state.mode, tricks)
        totals = (totals[0] + pts[0], totals[1] + pts[1])
        click.echo(f"\nhand {number}: tricks {tricks[0]}-{tricks[1]}, points {pts[0]}-{pts[1]}, "
                   f"total {totals[0]}-{totals[1]}")
        winner = game_winner(variant.target, totals)
        if winner is not None:
            click.echo({-1: "A draw.", 0: "You win the game!", 1: "The computer wins the game."}[winner])
            return
