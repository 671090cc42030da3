"""Packing for flash: an LZ format for large bitmaps and byte-pair encoding for text.

Both are decoded on the device by code generated next to the data (the
templates ``sprites.h.j2`` and ``text.cpp.j2``); :func:`lz_unpack` and
:func:`bpe_unpack` here are the same decoders in Python, so the tests check
a round trip in both languages.

**LZ** (the title screen): a stream of tokens, decoded into a buffer of known
size (the whole screen), so a copy may reach back to any byte already written.

- ``0LLLLLLL``: ``L + 1`` literal bytes follow (1..128);
- ``10LLLLHH OOOOOOOO``: copy ``L + 2`` bytes (2..17) from ``HHOOOOOOOO + 1``
  bytes back (1..1024);
- ``11LLLOOO``: copy ``L + 2`` bytes (2..9) from ``OOO + 1`` bytes back (1..8).

Copies go byte by byte, so one may overlap its own output (a run). The parse
is optimal for this format (shortest stream), found by dynamic programming.

**BPE** (every text on the screen): byte codes below ``first`` stand for
themselves (characters, or what ``text.py`` maps them to; 0 ends a text); a
code ``first + i`` stands for the two codes of ``pairs[i]``, which may be
pairs again. The encoder repeatedly replaces
the most frequent adjacent pair in all texts while that saves bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

LZ_MAX_OFFSET = 1024


def lz_pack(data: bytes) -> bytes:
    """The shortest token stream for ``data`` in the format above."""
    n = len(data)
    inf = 1 << 30
    cost = [inf] * (n + 1)
    step: list[tuple[int, int] | None] = [None] * (n + 1)  # (start, token kind/offset) reaching i
    cost[0] = 0
    starts: dict[bytes, list[int]] = {}  # 2-byte prefix -> earlier positions
    for i in range(n):
        if i >= 1:
            starts.setdefault(data[i - 1:i + 1], []).append(i - 1)
        c = cost[i]
        for length in range(1, min(128, n - i) + 1):  # literal runs
            if c + 1 + length < cost[i + length]:
                cost[i + length] = c + 1 + length
                step[i + length] = (i, 0)
        for j in reversed(starts.get(data[i:i + 2], [])):  # copies, nearest first
            off = i - j
            if off > LZ_MAX_OFFSET:
                break
            short = off <= 8
            most = min(9 if short else 17, n - i)
            length = 0
            while length < most and data[i + length] == data[i + length - off]:
                length += 1
            for k in range(2, length + 1):
                size = 1 if short and k <= 9 else 2
                if c + size < cost[i + k]:
                    cost[i + k] = c + size
                    step[i + k] = (i, off)
    tokens = []
    i = n
    while i:
        start, off = step[i]
        tokens.append((start, i - start, off))
        i = start
    out = bytearray()
    for start, length, off in reversed(tokens):
        if not off:
            out.append(length - 1)
            out += data[start:start + length]
        elif off <= 8 and length <= 9:
            out.append(0xC0 | (length - 2) << 3 | (off - 1))
        else:
            out += bytes([0x80 | (length - 2) << 2 | (off - 1) >> 8, (off - 1) & 0xFF])
    return bytes(out)


def lz_unpack(packed: bytes, size: int) -> bytes:
    """Inverse of :func:`lz_pack`, written as the device decodes it."""
    out = bytearray()
    p = 0
    while len(out) < size:
        c = packed[p]
        p += 1
        if c < 0x80:
            out += packed[p:p + c + 1]
            p += c + 1
            continue
        if c < 0xC0:
            length, off = (c >> 2 & 15) + 2, ((c & 3) << 8 | packed[p]) + 1
            p += 1
        else:
            length, off = (c >> 3 & 7) + 2, (c & 7) + 1
        for _ in range(length):
            out.append(out[-off])
    if len(out) != size or p != len(packed):
        raise ValueError(f"LZ stream decodes to {len(out)} bytes using {p} of {len(packed)}, expected {size}")
    return bytes(out)


@dataclass(frozen=True)
class TextPack:
    """Texts packed together: ``data`` holds each text's codes followed by 0."""
    first: int  # the first pair code; codes below are characters
    pairs: tuple[tuple[int, int], ...]
    data: bytes
    depth: int  # the most pair halves a decoder must hold while expanding

    def code_depth(self, code: int) -> int:
        """Pending right halves needed to expand ``code``: push the right, expand the left."""
        if code < self.first:
            return 0
        a, b = self.pairs[code - self.first]
        return max(1 + self.code_depth(a), self.code_depth(b))


def bpe_pack(texts: list[str], first: int = 128) -> TextPack:
    """Byte-pair encode ``texts`` (characters 1..first-1) with codes first..255."""
    for t in texts:
        bad = [ch for ch in t if not 0 < ord(ch) < first]
        if bad:
            raise ValueError(f"text {t[:20]!r}... has characters outside 1..{first - 1}: {bad[:5]}")
    seqs = [[ord(ch) for ch in t] for t in texts]
    pairs: list[tuple[int, int]] = []
    for code in range(first, 256):
        counts: dict[tuple[int, int], int] = {}
        for s in seqs:
            for pair in zip(s, s[1:]):
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        pair, count = max(counts.items(), key=lambda kv: kv[1])  # first of the most frequent
        if count < 3:  # a pair costs 2 bytes in the table: used twice it saves nothing
            break
        pairs.append(pair)
        for k, s in enumerate(seqs):
            out, i = [], 0
            while i < len(s):
                if i + 1 < len(s) and (s[i], s[i + 1]) == pair:
                    out.append(code)
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            seqs[k] = out
    data = bytes(c for s in seqs for c in s + [0])
    pack = TextPack(first, tuple(pairs), data, 0)
    depth = max((pack.code_depth(c) for c in data), default=0)
    return TextPack(first, tuple(pairs), data, depth)


def bpe_unpack(pack: TextPack) -> list[str]:
    """Every text of ``pack``, expanded with a stack of ``pack.depth`` codes as the device does."""
    texts, chars, stack, p = [], [], [], 0
    while p < len(pack.data):
        c = stack.pop() if stack else pack.data[(p := p + 1) - 1]
        while c >= pack.first:
            a, b = pack.pairs[c - pack.first]
            stack.append(b)
            if len(stack) > pack.depth:
                raise ValueError(f"expanding needs more than {pack.depth} stacked codes")
            c = a
        if c:
            chars.append(chr(c))
        else:
            texts.append("".join(chars))
            chars = []
    return texts
