"""``whist play``: a game against the computer in the terminal, worded as on the device.

Cards are named as the device draws them (``10♥``, ``Q♠``; letters where the
terminal cannot show the suit signs), the hand is sorted as on the device,
only what the player could see at the table is shown, and every line fits in
80 columns (tests/cli checks it). The opponent is named as on the device (Reg
at Club) and says what the FX edition's says, at the same moments
(generator/ai/persona.py).
"""

from __future__ import annotations

import random

import click

from ..ai import persona
from ..ai.players import FIRST_LEVEL, HUMAN, LEVEL_NAMES, make_player
from ..ai.review import HandReview, Reviewer
from ..ai.summary import Summary
from ..engine.cards import CardError, suit_of
from ..engine.display import DECK_TITLES, hand_reason, score_reason, scoring_help, scoring_title, stage2_notice
from ..engine.game import play_hand
from ..engine.prng import ai_rng
from ..engine.rules import LOW, Variant, game_winner, hand_points
from ..engine.state import HandState, Trick
from ..engine.trace import PlayedHand
from .review import plural, summary_text, text
from .table import SUIT_WORDS, Table, can_show_signs

# The device's levels by their player-facing names, weakest first; Expert is the PC's own.
LEVELS = {name.lower(): (player, hint) for player, (name, hint) in LEVEL_NAMES.items()}
EXPERT = ("expert", "stronger still, on this PC only")
FIRST = LEVEL_NAMES[FIRST_LEVEL][0].lower()
HELP = (
    "Type a card as it is shown: a rank (2 to 10, J, Q, K, A) and a suit",
    "(S H D C, or the sign), e.g. 10H or QS; q quits.",
    "Follow the suit led if you can; the highest card of it wins, or the",
    "highest trump. Stage 1: the trick's winner takes the face-up card, the",
    "loser the hidden one below it. Stage 2: the last tricks, no drawing.",
)


def echo(line: str = "") -> None:
    click.echo(line)


def ask(prompt: str) -> str:
    """One line of input; end of input quits like 'q'."""
    try:
        text = click.prompt(prompt, default="", show_default=False, prompt_suffix=" ").strip()
    except click.exceptions.Abort:
        text = "q"
    if text.lower() in ("q", "quit"):
        echo("Goodbye.")
        raise click.exceptions.Exit(0)
    return text


def run(seed: int | None, deck: int, scoring: str, target: int, level: str) -> None:
    if seed is None:
        seed = random.getrandbits(32)
    variant = Variant.make(deck, scoring, target)
    player, hint = LEVELS.get(level, EXPERT)
    ai = make_player(player, ai_rng(seed))
    t = Table(can_show_signs())
    goal = f"to {target} points" if target else "a single hand"
    echo(f"German Whist, deal number {seed}")
    echo(f"{DECK_TITLES[deck]}, scoring {scoring_title(variant.scoring, variant.deck)}, {goal}.")
    speaks = player in persona.OPPONENTS  # Expert, the PC's own, keeps quiet
    name = persona.name(player)
    echo(f"You play against {name} ({level.capitalize()}, {hint})." if speaks else
         f"You play against {name} ({hint}).")

    def says(moment: str | None, tricks: int = 0) -> None:
        """The device's opponent speaks as it does in the FX edition, after ``tricks`` of the hand."""
        if speaks and moment:
            echo(f'{name}: "{persona.line(player, moment, seed, number, tricks)}"')
    echo("Type a card as it is shown (10H, QS or Q" + t.suit(0) + "); ? explains, q quits.")

    def header(state: HandState) -> None:
        """A trick's first lines, before its first card, whoever leads."""
        obs = state.observation(0)
        echo()
        stage = obs.stage
        won = obs.tricks[stage - 1]
        echo(f"Trick {obs.trick_number}, stage {stage}. Tricks this stage: you {won[0]}, {name} {won[1]}.")
        if obs.stock_left:
            echo(f"Face-up card: {t.card(obs.upcard)}, {obs.stock_left} left in the stock.")
        elif obs.trick_number == variant.deck.hand_size + 1:
            echo(stage2_notice(variant.scoring, variant.deck, obs.mode) + ". No more drawing.")

    def choose(state: HandState, p: int) -> int:
        obs = state.observation(p)
        if obs.lead < 0:
            header(state)
        if p == 1:
            c = ai.choose(obs, state.legal_mask())
            echo(f"{name} {'leads' if obs.lead < 0 else 'plays'} {t.card(c)}.")
            return c
        legal = state.legal_mask()

        def show() -> None:
            echo(f"Your hand: {t.cards(obs.hand, state.trump)}")
            if obs.lead >= 0 and legal != obs.hand:
                echo(f"You must follow suit: {t.cards(legal, state.trump)}")

        show()
        while True:
            text = ask("Your lead:" if obs.lead < 0 else "Your card:")
            if text in ("?", "h", "help"):
                for line in HELP:
                    echo(line)
                scoring = scoring_help(variant.scoring, variant.deck)
                echo(f"{scoring[0]}. {' '.join(scoring[1:])}")  # which tricks score, and how
                if obs.stage == 2:
                    echo(stage2_notice(variant.scoring, variant.deck, obs.mode) + ".")
                show()
                continue
            try:
                c = t.parse(text)
            except CardError:
                echo(f"Not a card: {text!r}. Type a rank and a suit, e.g. 10H or QS.")
                continue
            if not obs.hand >> c & 1:
                echo(f"You do not hold {t.card(c)}.")
            elif not legal >> c & 1:
                echo(f"You must follow suit: play a {SUIT_WORDS[suit_of(obs.lead)][:-1]}.")
            else:
                return c

    def show(line: str) -> None:
        if line.startswith("trick "):
            tell(last[0].history[-1])

    def tell(trick: Trick) -> None:
        you = trick.winner == 0
        echo(("You take" if you else f"{name} takes") + " the trick.")
        if trick.take >= 0:
            got = f"you draw {t.card(trick.draw)}" if you is False else f"{name} draws a hidden card"
            echo(f"{'You take' if you else f'{name} takes'} {t.card(trick.take)}; {got}.")
        if trick.number < 2 * variant.deck.hand_size:  # the hand's last trick: a slam, said with the score
            says(persona.trick_moment(trick, last[0].trump, variant.deck.hand_size), trick.number)

    last: list[HandState] = []

    def choose_tracked(state: HandState, p: int) -> int:
        if not last or last[0] is not state:
            last[:] = [state]
            start(state)
        return choose(state, p)

    def start(state: HandState) -> None:
        mode = " Low hand: fewest tricks win." if state.mode == LOW else ""
        echo()
        echo(f"Hand {number}. Trumps: {t.suit(state.trump)} {SUIT_WORDS[state.trump]}.{mode}")
        echo("Stage 1: win a trick to take the face-up card.")
        says(persona.hand_moment(number))

    coach = Coach(seed, variant, player, t.signs)
    try:
        totals = (0, 0)
        number = 0
        while True:
            number += 1
            state = play_hand(variant, seed, number, choose_tracked, show)
            tricks = state.counted_tricks()
            pts = hand_points(variant.scoring, variant.deck, state.mode, tricks)
            totals = (totals[0] + pts[0], totals[1] + pts[1])
            coach.played.append(PlayedHand(number, state, pts, totals))
            echo()
            echo(f"Hand {number} over. Tricks that count: you {tricks[0]}, {name} {tricks[1]}.")
            why = score_reason(variant.scoring, variant.deck, state.mode, tricks)
            if pts[0] or pts[1]:
                echo(f"{'You score' if pts[0] else f'{name} scores'} {plural(max(pts), 'point')} ({why}).")
            else:
                echo(f"No points this hand ({why}).")
            end = 2 * variant.deck.hand_size
            says(persona.slam_moment(hand_reason(variant.scoring, variant.deck, state.mode, tricks)[0], pts), end)
            echo(f"Total: you {totals[0]}, {name} {totals[1]}.")
            winner = game_winner(variant.target, totals)
            if winner is not None:
                echo({-1: "A draw!", 0: "You win the game!", 1: f"{name} wins the game."}[winner])
                if winner >= 0:
                    says("won" if winner else "lost", end)
                if winner == 0 and speaks:
                    echo(persona.next_line(player))
                if ask("Type r for a review of the hand, or press Enter (q quits)").lower() == "r":
                    coach.review()
                return
            while ask("Press Enter for the next hand, r for a review of this one (q quits)").lower() == "r":
                coach.review()
    finally:
        coach.finish()


class Coach:
    """The review `whist review` gives, offered after each hand (generator/ai/review.py).

    The reviewer replays every hand's computer cards from the game's stream,
    so the hands not reviewed are walked through too, when a later one is.
    """

    def __init__(self, seed: int, variant: Variant, player: str, signs: bool) -> None:
        self.reviewer = Reviewer(seed, variant, (HUMAN, player), seat=0)
        self.signs = signs
        self.played: list[PlayedHand] = []
        self.followed = 0
        self.reviews: dict[int, HandReview] = {}
        self.summary = Summary()

    def review(self) -> None:
        last = self.played[-1]
        if last.number not in self.reviews:
            echo("Reviewing the hand...")
            for hand in self.played[self.followed:-1]:
                self.reviewer.follow(hand)
            self.reviews[last.number] = self.reviewer.review(last)
            self.summary.add(self.reviews[last.number])
            self.followed = len(self.played)
        echo()
        for line in text(self.reviews[last.number], self.signs, explain_range=len(self.reviews) == 1):
            echo(line)
        echo()

    def finish(self) -> None:
        """The game over or left: the reviews of several hands end with their summary."""
        if self.summary.hands > 1:
            echo()
            for line in summary_text(self.summary):
                echo(line)
