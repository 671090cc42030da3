"""The order of the firmware's functions in flash, chosen so that calls reach with ``rcall``.

avr-gcc emits every call to another function as a four-byte ``call`` (``jmp``
for a tail call), and the linker's relaxation (``-mrelax``) turns each into a
two-byte ``rcall`` (``rjmp``) when its target lies within 4 KB. Which calls
are that close depends on the order of the functions in flash, which LTO
otherwise leaves to chance. The build links once with a map, reads every call
between functions from that link (:func:`sites`), arranges the functions so
that as many calls as possible are in reach (:func:`arrange`), and links again
with the default linker script of the toolchain, given that order
(:func:`script`). Everything here is deterministic: the same link gives the
same order.

The arrangement is scored on the layout with every call still long, where a
call in reach is certain to be relaxed (relaxation only deletes bytes, so
nothing moves apart); the linker then relaxes some more.
"""

from __future__ import annotations

import random
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

MOVABLE = ".text."  # -ffunction-sections: one section per function (libgcc's come in a few groups)
CODE = (".text", ".init", ".fini")  # the sections of code; the disassembly reads PROGMEM data as code too
REACH = (-4096, 4094)  # rcall/rjmp: target - (address + 2), in bytes
ROUNDS = 30_000  # moves tried (a few seconds)
SEED = 1
ACCEPT = 0.7  # the chance of keeping a move that loses one call, at first
SCRIPT_MARK = "==================================================\n"  # around ld --verbose's script
DEFAULT_TEXT = "     *(.text.*)\n"  # the default script's line that takes the functions
# Cart builders find the Timer0 overflow ISR through vector 23's jmp (generator/targets/cart.py);
# within 4 KB of the vectors the linker would make it an rjmp, so it goes last, out of reach.
LAST = ".text.__vector_23"


class OrderError(Exception):
    """The link's map or disassembly is not what this module reads."""


@dataclass(frozen=True)
class Section:
    name: str
    address: int
    size: int
    file: str  # the object it comes from, "lib.a(member.o)" for a library's

    def pattern(self) -> str:
        """How a linker script names it: libraries reuse one section name across members."""
        m = re.fullmatch(r".*/(lib[^/]*\.a)\((.*)\)", self.file)
        return f"*{m[1]}:{m[2]}({self.name})" if m else f"*({self.name})"


@dataclass(frozen=True)
class Site:
    """A call or jump from one section to another: where it is and where it goes."""
    address: int
    target: int
    short: bool  # already relaxed in this link


def sections(map_text: str) -> list[Section]:
    """The input sections of the output section .text, by address, from a linker map (-Map)."""
    start, end = map_text.find("\n.text "), map_text.find("\n.data ")
    if start < 0 or end < start:
        raise OrderError("the linker map has no .text output section before .data")
    found = [Section(m[1], int(m[2], 16), int(m[3], 16), m[4])
             for m in re.finditer(r"^ (\.\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)", map_text[start:end], re.M)]
    return sorted((s for s in found if s.size), key=lambda s: s.address)


def sites(disassembly: str) -> list[Site]:
    """Every call and jump of an ``avr-objdump -d`` listing, with its target address."""
    return [Site(int(m[1], 16), int(m[3], 16), m[2].startswith("r"))
            for m in re.finditer(r"^ *([0-9a-f]+):\t[^\t]*\t(r?call|r?jmp)\t[^;\n]*; 0x([0-9a-f]+)", disassembly, re.M)]


class Layout:
    """The sections and the calls between them, sized as if no call were relaxed."""

    def __init__(self, secs: list[Section], calls: list[Site]) -> None:
        starts = [s.address for s in secs]
        self.patterns = [s.pattern() for s in secs]
        movable = [i for i, s in enumerate(secs) if s.name.startswith(MOVABLE)]
        if not movable or movable != list(range(movable[0], movable[-1] + 1)):
            raise OrderError("the functions' sections (.text.*) are not one run in the map")
        self.movable = movable
        self.last = [i for i in movable if secs[i].name == LAST]
        self.free = [i for i in movable if i not in self.last]  # what the order arranges

        def owner(address: int) -> int | None:  # the code section holding the address
            lo, hi = 0, len(secs)
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if starts[mid] <= address else (lo, mid)
            inside = secs[lo].address <= address < secs[lo].address + secs[lo].size
            return lo if inside and secs[lo].name.startswith(CODE) else None

        # Calls between sections of code (the vectors' slots keep their size either way).
        between = [(owner(c.address), owner(c.target), c) for c in calls]
        between = [(a, b, c) for a, b, c in between if a is not None and b is not None and a != b]
        shorts = sorted(c.address for _, _, c in between if c.short)

        def unrelaxed(address: int) -> int:  # the address with the relaxed calls before it long again
            lo, hi = 0, len(shorts)
            while lo < hi:
                mid = (lo + hi) // 2
                lo, hi = (mid + 1, hi) if shorts[mid] < address else (lo, mid)
            return address + 2 * lo

        base = [unrelaxed(s.address) for s in secs]
        self.size = [unrelaxed(s.address + s.size) - b for s, b in zip(secs, base)]
        self.fixed = base  # the sections outside the run keep these (those after it move with its size)
        self.start = base[movable[0]]
        self.after = unrelaxed(secs[movable[-1]].address + secs[movable[-1]].size)
        # (section, offset, target section, target offset) in unrelaxed bytes
        self.calls = [(a, unrelaxed(c.address) - base[a], b, unrelaxed(c.target) - base[b]) for a, b, c in between]
        self.relaxed = len(shorts)  # of len(self.calls), in this link
        self.spans = [(a, b, toff - off - 2) for a, off, b, toff in self.calls]  # target - (call + 2) = pos[b] - pos[a] + span
        self.partners: dict[int, list[int]] = {}
        for a, _, b, _ in self.calls:
            if a != b and a in movable and b in movable:
                self.partners.setdefault(a, []).append(b)
                self.partners.setdefault(b, []).append(a)

    def positions(self, order: list[int]) -> list[int]:
        """Where each section starts with the free functions in this order (then the last)."""
        pos = list(self.fixed)
        at = self.start
        for u in order + self.last:
            pos[u] = at
            at += self.size[u]
        shift = at - self.after
        for i in range(self.movable[-1] + 1, len(pos)):
            pos[i] += shift
        return pos

    def in_reach(self, order: list[int]) -> int:
        """How many calls are certain to be relaxed with the functions in this order."""
        pos = self.positions(order)
        lo, hi = REACH
        return sum(lo <= pos[b] - pos[a] + span <= hi for a, b, span in self.spans)


def grown(layout: Layout) -> list[int]:
    """A first order: from the function with the most calls, each next the one with the most
    calls to those placed, put at whichever end brings more in reach."""
    placed = [max(layout.free, key=lambda u: (len(layout.partners.get(u, ())), -u))]
    rest = [u for u in layout.free if u != placed[0]]
    while rest:
        u = max(rest, key=lambda v: sum(p in placed for p in layout.partners.get(v, ())))
        rest.remove(u)
        before, after = [u, *placed], [*placed, u]
        placed = before if layout.in_reach(before + rest) >= layout.in_reach(after + rest) else after
    return placed


def arrange(layout: Layout, rounds: int = ROUNDS, seed: int = SEED) -> list[int]:
    """A function order with many calls in reach: from :func:`grown`'s, moves one function at a
    time, most next to a function it calls or is called by; a move that loses calls is kept
    now and then, less often the more it loses and the later it is (simulated annealing),
    and the best order met is the answer. Only exact float operations decide (no exp), so the
    order is the same on every machine."""
    rng = random.Random(seed)
    order = grown(layout)
    now = layout.in_reach(order)
    best, best_order = now, order
    for k in range(rounds):
        u = rng.choice(order)
        i = order.index(u)
        partners = layout.partners.get(u)
        trial = order[:i] + order[i + 1:]
        if partners and rng.random() < 0.7:
            j = trial.index(rng.choice(partners)) + rng.randrange(2)
        else:
            j = rng.randrange(len(trial) + 1)
        trial.insert(j, u)
        score = layout.in_reach(trial)
        if score >= now or rng.random() < ACCEPT * (1 - k / rounds) ** 2 / 2 ** (now - score - 1):
            now, order = score, trial
            if now > best:
                best, best_order = now, order
    return best_order


def script(default: str, patterns: list[str]) -> str:
    """The toolchain's default linker script with the functions' sections in this order."""
    if DEFAULT_TEXT not in default:
        raise OrderError("the default linker script has no '*(.text.*)' line to order")
    ordered = "".join(f"     {p}\n" for p in dict.fromkeys(patterns))  # a name twice: where it comes first
    return default.replace(DEFAULT_TEXT, ordered + DEFAULT_TEXT, 1)


def default_script(emulation: str = "avr5") -> str:
    """The linker script avr-ld uses for the ATmega32u4 (the avr5 emulation), from ``avr-ld --verbose``."""
    out = subprocess.run(["avr-ld", "--verbose", f"-m{emulation}"], capture_output=True, text=True)
    parts = out.stdout.split(SCRIPT_MARK)
    if out.returncode or len(parts) != 3:
        raise OrderError(f"avr-ld --verbose printed no default linker script: {out.stderr.strip()}")
    return parts[1]


def read_link(elf: Path, map_path: Path) -> Layout:
    """The layout of a link from its ELF and map."""
    dis = subprocess.run(["avr-objdump", "-d", str(elf)], capture_output=True, text=True)
    if dis.returncode:
        raise OrderError(f"avr-objdump {elf}: {dis.stderr.strip()}")
    return Layout(sections(map_path.read_text()), sites(dis.stdout))


def order_script(layout: Layout) -> str:
    """The linker script for the next link of the build whose layout is given."""
    return script(default_script(), [layout.patterns[u] for u in arrange(layout) + layout.last])
