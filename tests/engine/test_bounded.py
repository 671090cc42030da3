"""The bounded reader every command shares (generator/engine/bounded.py): what it reads, refuses and quotes."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from generator.ai.players import PLAYERS
from generator.engine.bounded import QUOTE, InputError, Kind, Lines, check, lines, quote, read
from generator.engine.rules import MAX_TARGET, SCORINGS, Variant, deal
from generator.engine.state import HandState
from generator.engine.trace import TRACE, TRACE_LINE, TraceError, game_header, hand_header, replay

SMALL = Kind("a small thing", 100, "give a smaller one", line=10)
ZIPPED = Kind("a zipped thing", 1000, "zip it", magic=b"PK")


def test_quotes_are_cut_and_escaped():
    assert quote("short line") == "'short line'"
    long = "x" * 1000
    assert quote(long) == "'" + "x" * QUOTE + "...'"
    assert quote("a\x00b\tc") == "'a\\x00b\\tc'"
    assert len(quote("\x00" * 1000)) < 2 * QUOTE


def test_a_quote_against_the_expected_line_shows_where_they_differ():
    want = "stock " + " ".join(["2S"] * 26)
    got = want[:70] + "AH" + want[72:]
    shown = quote(got, want)
    assert "AH" in shown and shown.startswith("'...") and len(shown) <= QUOTE + 8
    assert quote("stock 3S", want) == "'stock 3S'"  # differs early: shown from its start


def test_a_trace_that_differs_late_in_a_long_line_is_quoted_where_it_differs(tmp_path):
    v = Variant.make(52, "last13", 0)
    d = deal(1, 1, v.deck)
    header = game_header(1, v, ("greedy", "greedy"))
    lines_ = [header, *hand_header(d, HandState(v.deck, v.scoring, d).trump, 0)]
    stock = lines_[4]
    lines_[4] = stock[:-2] + ("2S" if stock[-2:] != "2S" else "3S")
    with pytest.raises(TraceError) as e:
        replay(lines_)
    found = str(e.value).split("found ")[1]
    assert found.startswith("'...") and found.endswith(lines_[4][-8:] + "'")


def test_lines_come_whole_across_chunks_and_a_long_one_is_refused_at_once():
    s = Lines(SMALL, "the port")
    assert s.feed(b"ab") == []
    assert s.feed(b"c\r\nde\nf") == [b"abc", b"de"]
    assert s.end() == [b"f"] and s.number == 3
    s = Lines(SMALL, "the port")
    with pytest.raises(InputError, match=r"^the port: line 1 is longer than any line of a small thing \(10 char"):
        s.feed(b"y" * 11)  # no line ending yet: refused as soon as it is too long
    with pytest.raises(InputError, match=r"line 2 is longer"):
        Lines(SMALL, "f").feed(b"ok\n" + b"z" * 11 + b"\n")


def test_standard_input_is_bounded_as_a_file_is():
    assert list(lines("-", SMALL, io.BytesIO(b"a\nb\n"))) == ["a", "b"]
    with pytest.raises(InputError, match="^standard input: more than a small thing holds"):
        list(lines("-", SMALL, io.BytesIO(b"abc\n" * 30)))
    with pytest.raises(UnicodeDecodeError):
        list(lines("-", SMALL, io.BytesIO(b"\xff\n")))


def test_only_a_regular_file_within_its_kind_is_read(tmp_path: Path):
    f = tmp_path / "f"
    f.write_bytes(b"x" * 100)
    assert read(f, SMALL) == b"x" * 100
    f.write_bytes(b"x" * 101)
    with pytest.raises(InputError, match=r"^.*/f: 101 bytes, more than a small thing holds \(100 bytes at most\); give"):
        read(f, SMALL)
    os.mkfifo(tmp_path / "fifo")
    for path, what in ((tmp_path / "fifo", "a FIFO"), (tmp_path, "a folder"), (Path("/dev/zero"), "a device"),
                       (tmp_path / "none", "no such file")):
        with pytest.raises(InputError, match=f"^{path}: {what}"):
            read(path, SMALL)
        with pytest.raises(InputError, match=f"^{path}: {what}"):
            check(path, SMALL)


def test_the_kind_is_told_by_how_the_file_starts(tmp_path: Path):
    f = tmp_path / "f"
    f.write_bytes(b"PK" + bytes(500))
    assert len(read(f, SMALL, ZIPPED)) == 502  # a zip: its own limit
    f.write_bytes(b"ab" + bytes(500))
    with pytest.raises(InputError, match="more than a small thing holds"):
        read(f, SMALL, ZIPPED)


def test_the_longest_line_the_engine_writes_fits_a_trace_line():
    name = max(PLAYERS, key=len)
    longest = max(len(game_header(0xFFFFFFFF, Variant.make(52, max(SCORINGS, key=len), MAX_TARGET), (name, name))),
                  len(hand_header(deal(1, 1, Variant.make(52, "last13", 0).deck), 0, 0)[3]))
    assert longest < 100 <= TRACE_LINE == TRACE.line
