"""The opponents behind the levels: a name each, and what each says at the moments that matter.

Each device level (``players.DEVICE_PLAYERS``) is an opponent with a name, which
the device shows wherever the computer is named. In the FX edition it also
speaks: a line in a bubble beside its portrait when a hand starts (its trump
just turned up), when stage 2 begins, and on the scoreboard of its slam or the
game's end. Which of a moment's lines it says follows from the deal
(:func:`line_index`), so a game's words are the same on every run and nothing
is drawn from the AI's random stream: traces do not change.
"""

from __future__ import annotations

# At most NAME_CHARS letters: the table's panel has room for three.
OPPONENTS: dict[str, str] = {
    "random": "Pip",
    "greedy": "Kit",
    "original": "Reg",
    "easy": "Ada",
    "hard": "Max",
}
NAME_CHARS = 3

# The moments an opponent speaks at, and how many lines it has for each.
MOMENTS: dict[str, int] = {"hand": 3, "stage2": 2, "slam": 1, "won": 1, "lost": 1}
LINE_CHARS, LINE_ROWS = 24, 3  # the bubble: rows of characters, "\n" between them

LINES: dict[str, dict[str, tuple[str, ...]]] = {
    "random": {
        "hand": ("Ooh, new cards!\nLet's play!", "I like this game!", "Is it my turn yet?"),
        "stage2": ("No more cards to draw?\nOkay!", "What happens now?"),
        "slam": ("I won them ALL?\nWow!",),
        "won": ("I won! I really won!",),
        "lost": ("Good game!\nAgain? Again?",),
    },
    "greedy": {
        "hand": ("Cards, cards, cards.", "Let's see what I got.", "Deal me in."),
        "stage2": ("Stock's gone.\nPlay on.", "Last tricks. Easy."),
        "slam": ("Every trick.\nNot bad, eh?",),
        "won": ("Ha, that was fun.",),
        "lost": ("Eh, you got lucky.",),
    },
    "original": {
        "hand": ("Trumps turned up.\nMind them.", "Another hand, then.", "Shuffle up and deal."),
        "stage2": ("Now the tricks count.", "No more drawing.\nCount your trumps."),
        "slam": ("A slam! Just like\nthe old club nights.",),
        "won": ("That's the game.\nWell played, though.",),
        "lost": ("You beat old Reg.\nGood on you.",),
    },
    "easy": {
        "hand": ("I have a plan.", "Noted: the trump suit.", "Watch the face-up\ncard, as I do."),
        "stage2": ("I know your cards now.", "Every card is known.\nNo more luck."),
        "slam": ("All of them.\nAs calculated.",),
        "won": ("As expected.",),
        "lost": ("Interesting.\nI must study that.",),
    },
    "hard": {
        "hand": ("Let's begin.", "Your move, friend.", "I have seen this\nhand before."),
        "stage2": ("Now it gets serious.", "I know where every\ncard is."),
        "slam": ("Every trick.\nMine.",),
        "won": ("Good game.\nBetter luck next time.",),
        "lost": ("You beat me.\nImpressive.",),
    },
}


def line_index(moment: str, seed: int, hand_no: int) -> int:
    """Which of the moment's lines is said in hand ``hand_no`` of game ``seed`` (the low byte
    of their sum, as the device's ``text::voice`` takes it)."""
    return (seed + hand_no) % 256 % MOMENTS[moment]


def line(player: str, moment: str, seed: int, hand_no: int) -> str:
    """What opponent ``player`` says at ``moment`` in hand ``hand_no`` of game ``seed``."""
    return LINES[player][moment][line_index(moment, seed, hand_no)]


def check() -> None:
    """Every name fits the panel and every line the bubble, a moment has its count of lines."""
    for player, name in OPPONENTS.items():
        if len(name) > NAME_CHARS:
            raise ValueError(f"opponent name {name!r} is longer than {NAME_CHARS} letters")
        for moment, count in MOMENTS.items():
            if not 1 <= count <= 7:
                raise ValueError(f"{moment}: 1 to 7 lines (text::Moment keeps the count in 3 bits), not {count}")
            lines = LINES[player][moment]
            if len(lines) != count:
                raise ValueError(f"{name} has {len(lines)} lines for {moment}, not {count}")
            for t in lines:
                rows = t.split("\n")
                if len(rows) > LINE_ROWS or max(map(len, rows)) > LINE_CHARS:
                    raise ValueError(f"{name}'s line {t!r} does not fit the bubble ({LINE_ROWS} rows of {LINE_CHARS})")
