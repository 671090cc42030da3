"""The opponents behind the levels: a name each, and what each says at the moments that matter.

Each device level (``players.DEVICE_PLAYERS``) is an opponent with a name, which
the device shows wherever the computer is named (the table, the scoreboard,
game over, Settings, Stats) and the terminal game and ``whist review`` use too.
In the FX edition it also speaks, one line at a time in a bubble beside its
portrait: when a hand starts (a game's first, or a later one), when a trick
takes a big face-up card (:func:`big`) or is won by a trump on a card of
another suit, when stage 2 begins, at a slam (its own or the player's), and
at the game's end. Which of a moment's lines it says follows from the deal
and the tricks played (:func:`line_index`), so a game's words are the same on
every run and nothing is drawn from the AI's random stream: traces do not
change.
"""

from __future__ import annotations

from ..engine.cards import RANKS, rank_of, suit_of
from ..engine.state import Trick
from .players import DEVICE_PLAYERS, FX_TWINS, LEVEL_NAMES

# At most NAME_CHARS letters: the table's panel has room for three.
OPPONENTS: dict[str, str] = {
    "random": "Pip",
    "greedy": "Kit",
    "original": "Reg",
    "easy": "Ada",
    "hard": "Max",
}
NAME_CHARS = 3

# The moments an opponent speaks at, and how many lines it has for each (the device keeps a
# moment's first line and its count in one byte: text::Moment).
MOMENTS: dict[str, int] = {
    "first": 2,      # a game's first hand starts, or a session's
    "hand": 3,       # a later hand starts
    "ruffs": 2,      # it wins a trick with a trump on a card of another suit
    "ruffed": 2,     # the player does
    "big_won": 2,    # it takes a big face-up card (stage 1)
    "big_lost": 2,   # the player does
    "stage2": 2,     # stage 2 begins (the last stage-1 trick is taken)
    "slam": 2,       # its slam (the hand's last trick)
    "your_slam": 2,  # the player's slam
    "won": 2,        # it wins the game (the game-over screen)
    "lost": 2,       # it loses it
}
LINE_CHARS = 24  # the bubble: one line of characters

BIG_RANK = RANKS.index("Q")  # a face-up card from the queen up is worth a word when it is taken

LINES: dict[str, dict[str, tuple[str, ...]]] = {
    "random": {
        "first": ("Hi! I'm Pip. Let's play!", "Ooh, new cards! Hi!"),
        "hand": ("Again! Again!", "I like this game!", "Is it my turn yet?"),
        "ruffs": ("I had a trump! Hee hee.", "Trump! Is that allowed?"),
        "ruffed": ("Hey! A sneaky trump!", "Aww, you trumped me."),
        "big_won": ("A big card for me!", "Shiny! I'll keep it."),
        "big_lost": ("Aww, I wanted that one.", "You got the good one!"),
        "stage2": ("No more cards to draw?", "What happens now?"),
        "slam": ("I won them ALL? Wow!", "Every trick! Me!"),
        "your_slam": ("You won every trick!", "Wow, all of them!"),
        "won": ("I won! I really won!", "Yay! Again? Again?"),
        "lost": ("Good game! Again?", "You're really good!"),
    },
    "greedy": {
        "first": ("Kit's the name. Deal!", "Let's see what I got."),
        "hand": ("Cards, cards, cards.", "Deal me in.", "Another round? Sure."),
        "ruffs": ("Trumped. Mine now.", "Snip. That's mine."),
        "ruffed": ("Hey, I wanted that!", "Cheeky trump, that."),
        "big_won": ("Ooh, I'll take that.", "Grabbed it. Yum."),
        "big_lost": ("Eh, keep it.", "That one was mine!"),
        "stage2": ("Stock's gone. Play on.", "Last tricks. Easy."),
        "slam": ("Every trick. Not bad!", "All mine. Ha!"),
        "your_slam": ("You took the lot?!", "Every trick? Rude."),
        "won": ("Ha, that was fun.", "Easy money."),
        "lost": ("Eh, you got lucky.", "Fine. This one's yours."),
    },
    "original": {
        "first": ("Evening. Take a seat.", "Shuffle up and deal."),
        "hand": ("Another hand, then.", "Mind the trumps now.", "Right. Cards up."),
        "ruffs": ("Trumped, my friend.", "Old trick, that."),
        "ruffed": ("Ooh, a cheeky trump!", "Fair enough. Trumped."),
        "big_won": ("I'll have that one.", "Lovely card, that."),
        "big_lost": ("Take it. I'll manage.", "Well won, that card."),
        "stage2": ("Now the tricks count.", "Count your trumps now."),
        "slam": ("A slam! Like old times.", "Every trick. Ha ha!"),
        "your_slam": ("A slam! Well I never.", "All of them? Bravo!"),
        "won": ("That's the game. Ta!", "Well played, though."),
        "lost": ("You beat old Reg. Ta!", "Fair play to you."),
    },
    "easy": {
        "first": ("Ada. I have a plan.", "Shall we begin?"),
        "hand": ("Noted: the trump suit.", "Watch the face-up card.", "New deal. New plan."),
        "ruffs": ("Void, so I trumped.", "As planned: a trump."),
        "ruffed": ("You were void. Noted.", "A ruff. Well judged."),
        "big_won": ("That card was key.", "Taken, as intended."),
        "big_lost": ("A fair price to pay.", "I will get it back."),
        "stage2": ("I know your cards now.", "No more luck. Only play."),
        "slam": ("All of them. Computed.", "A slam, as calculated."),
        "your_slam": ("A slam? I must study.", "Remarkable. All tricks."),
        "won": ("As expected.", "My plan held."),
        "lost": ("Interesting. Well done.", "You beat my plan."),
    },
    "hard": {
        "first": ("Max. Let's begin.", "Your move, friend."),
        "hand": ("I've seen this before.", "Again? Fine.", "Deal. I'm ready."),
        "ruffs": ("Trumped. Naturally.", "You led into my trump."),
        "ruffed": ("Hm. A decent ruff.", "Lucky. Very lucky."),
        "big_won": ("Mine. Obviously.", "I'll take that, thanks."),
        "big_lost": ("Enjoy it while it lasts.", "Keep it. For now."),
        "stage2": ("Now it gets serious.", "I know every card now."),
        "slam": ("Every trick. Mine.", "A clean sweep."),
        "your_slam": ("All of them? Impossible.", "A slam. I'm impressed."),
        "won": ("Good game. Better luck.", "As I said: mine."),
        "lost": ("You beat me. Impressive.", "Well played. Rematch?"),
    },
}


def big(card: int) -> bool:
    """A face-up card worth a word when it is taken: a queen, a king or an ace."""
    return rank_of(card) >= BIG_RANK


def trick_moment(trick: Trick, trump: int, hand_size: int) -> str | None:
    """What seat 1 (the opponent) speaks of as ``trick`` is taken (None: nothing): stage 2 beginning
    (the last of stage 1's ``hand_size`` tricks), a big face-up card taken, or a trick won by a trump
    on a card of another suit. A slam at the hand's last trick comes first (:func:`slam_moment`)."""
    if trick.number == hand_size:
        return "stage2"
    mine = trick.winner == 1
    if trick.take >= 0 and big(trick.take):
        return "big_won" if mine else "big_lost"
    winning = trick.follow if trick.winner != trick.leader else trick.lead
    if suit_of(winning) == trump and suit_of(trick.lead) != trump:
        return "ruffs" if mine else "ruffed"
    return None


def slam_moment(reason: str, points: tuple[int, int]) -> str | None:
    """At the hand's end, from the scoreboard's reason (``display.hand_reason``'s kind) and the hand's
    points: "slam" for the opponent's slam, "your_slam" for the player's, else None."""
    if reason != "slam":
        return None
    return "slam" if points[1] else "your_slam"


def line_index(moment: str, seed: int, hand_no: int, tricks: int = 0) -> int:
    """Which of the moment's lines is said in hand ``hand_no`` of game ``seed`` after ``tricks``
    of its tricks (the low byte of their sum, as the device's ``text::voice`` takes it)."""
    return (seed + hand_no + tricks) % 256 % MOMENTS[moment]


def line(player: str, moment: str, seed: int, hand_no: int, tricks: int = 0) -> str:
    """What opponent ``player`` says at ``moment`` in hand ``hand_no`` of game ``seed``, ``tricks`` played."""
    return LINES[player][moment][line_index(moment, seed, hand_no, tricks)]


def hand_moment(hand_no: int, session_first: bool = False) -> str:
    """The moment a hand starts: a game's first or a session's first (the device's first since power-on,
    a game continued included), or a later one."""
    return "first" if hand_no == 1 or session_first else "hand"


NEXT_UP, TOP_BEATEN = "Next up: AI level ", "You beat them all!"  # the device's labels (assets/text/labels.txt)


def next_line(player: str) -> str:
    """What a player who has just beaten ``player`` is told: who is next, as Settings names it ("Next up: AI
    level Pro: Ada"); the last level, that there is none."""
    i = DEVICE_PLAYERS.index(player)
    if i + 1 == len(DEVICE_PLAYERS):
        return TOP_BEATEN
    after = DEVICE_PLAYERS[i + 1]
    return f"{NEXT_UP}{LEVEL_NAMES[after][0]}: {OPPONENTS[after]}"


def name(player: str) -> str:
    """The opponent's name for a device level (its FX twin too: ``hard-fx`` is Max); the PC's own players
    (``expert``...) by theirs."""
    level = next((p for p, twin in FX_TWINS.items() if twin == player), player)
    return OPPONENTS.get(level, player.capitalize())


def check() -> None:
    """Every name fits the panel and every line the bubble, a moment has its count of lines."""
    for player, who in OPPONENTS.items():
        if len(who) > NAME_CHARS:
            raise ValueError(f"opponent name {who!r} is longer than {NAME_CHARS} letters")
        for moment, count in MOMENTS.items():
            if not 1 <= count <= 7:
                raise ValueError(f"{moment}: 1 to 7 lines (text::Moment keeps the count in 3 bits), not {count}")
            lines = LINES[player][moment]
            if len(lines) != count:
                raise ValueError(f"{who} has {len(lines)} lines for {moment}, not {count}")
            for t in lines:
                if "\n" in t or len(t) > LINE_CHARS:
                    raise ValueError(f"{who}'s line {t!r} does not fit the bubble (one line of {LINE_CHARS})")
