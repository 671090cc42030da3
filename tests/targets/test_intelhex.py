"""Intel HEX parsing is strict: every malformed file is refused with the line that is wrong."""

import pytest
from hypothesis import given, strategies as st

from caterina_sim import to_hex
from generator.targets.intelhex import HexError, pages, parse



def rec(kind: int, address: int, data: bytes, count: int | None = None) -> str:
    """One record with a correct checksum (and a length field that may lie)."""
    body = bytes([len(data) if count is None else count]) + address.to_bytes(2, "big") + bytes([kind]) + data
    return ":" + (body + bytes([-sum(body) & 0xFF])).hex().upper() + "\n"


END = ":00000001FF\n"
# avr-objcopy style: data records and the end record
SAMPLE = ":100000000C9434000C9446000C9446000C9446006A\n" + rec(0, 0x10, bytes.fromhex("0C94")) + END


def test_parses_avr_objcopy_output():
    memory = parse(SAMPLE)
    assert len(memory) == 18
    assert bytes(memory[a] for a in range(4)) == bytes.fromhex("0C943400")
    assert memory[0x11] == 0x94


def test_accepts_lowercase_crlf_and_blank_lines():
    assert parse(SAMPLE.lower().replace("\n", "\r\n") + "\r\n\r\n") == parse(SAMPLE)


def test_address_records_move_the_base():
    text = rec(2, 0, b"\x10\x00") + rec(0, 0, b"\x42") + rec(4, 0, b"\x00\x01") + rec(0, 2, b"\x43") + END
    assert parse(text) == {0x10000: 0x42, 0x10002: 0x43}


@pytest.mark.parametrize(
    "text, message",
    [
        (SAMPLE.replace("6A\n", "6B\n"), "line 1: bad checksum 6B, expected 6A"),
        (rec(0, 0, b"\x01\x02", count=3) + END, "line 1: length field says 3 bytes, the record has 2"),
        ("0C9434000C\n", "line 1: does not start with ':'"),
        (":10000G00\n", "line 1: not a record of hex digit pairs"),
        (":0000000\n", "line 1: not a record of hex digit pairs"),
        (rec(3, 0, bytes(4)) + END, "line 1: unsupported record type 03"),
        (rec(5, 0, bytes(4)) + END, "line 1: unsupported record type 05"),
        (rec(6, 0, b"\x00") + END, "line 1: unsupported record type 06"),
        (rec(4, 0, b"\x00\x00\x01") + END, "line 1: malformed address record"),
        (SAMPLE + rec(0, 0, b"\x42"), "line 4: data after the end-of-file record"),
        (SAMPLE.replace(END, ""), "no end-of-file record"),
        (END, "no data records"),
        ("", "no end-of-file record"),
        (rec(0, 0, b"\x42") + rec(0, 0, b"\x43") + END, "line 2: address 0x0000 is given two different values"),
    ],
)
def test_refuses(text, message):
    with pytest.raises(HexError, match=message.replace("(", r"\(")):
        parse(text)


def test_the_same_value_twice_is_fine():
    assert parse(rec(0, 0, b"\x42") * 2 + END) == {0: 0x42}


def test_pages_are_aligned_and_padded():
    got = pages({0x7E: 1, 0x80: 2, 0x181: 3}, 128)
    assert list(got) == [0x00, 0x80, 0x180]
    assert got[0x00] == b"\xff" * 0x7E + b"\x01\xff"
    assert got[0x80] == b"\x02" + b"\xff" * 127
    assert got[0x180] == b"\xff\x03" + b"\xff" * 126


@given(st.dictionaries(st.integers(0, 0x6FFF), st.integers(0, 255), min_size=1, max_size=300))
def test_round_trip(memory):
    assert parse(to_hex(memory)) == memory
