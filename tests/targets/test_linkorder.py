"""The link order (generator/targets/linkorder.py): reading a link, arranging the functions, the script."""

from __future__ import annotations

import pytest

from generator.targets.linkorder import Layout, OrderError, Section, Site, arrange, script, sections, sites

MAP = """
.text           0x0000000000000000     0x2a00
 *(.vectors)
 .vectors       0x0000000000000000        0x8 /usr/lib/avr/lib/avr5/crtatmega32u4.o
 .progmem.data  0x0000000000000008        0x8 /tmp/ccX.ltrans0.ltrans.o
 .init9         0x0000000000000010        0x4 /usr/lib/avr/lib/avr5/crtatmega32u4.o
 .text.main     0x0000000000000014      0x100 /tmp/ccX.ltrans0.ltrans.o
 .text._ZN3gfx6textIdEhahNS_5ColorE
                0x0000000000000114       0x20 /tmp/ccX.ltrans1.ltrans.o
                0x0000000000000114                gfx::textId(unsigned char, signed char, unsigned char, gfx::Color)
 .text.libgcc.div
                0x0000000000000134       0x18 /usr/lib/gcc/avr/5.4.0/avr5/libgcc.a(_udivmodqi4.o)
 .text.empty    0x000000000000014c        0x0 /tmp/ccX.ltrans1.ltrans.o
 .text.far      0x000000000000014c     0x2000 /tmp/ccX.ltrans2.ltrans.o
 .text.callee   0x000000000000214c       0x10 /tmp/ccX.ltrans2.ltrans.o

.data           0x0000000000800100       0x10
"""

DISASSEMBLY = """
00000000 <__vectors>:
       0:\t0c 94 0a 00 \tjmp\t0x14\t; 0x14 <main>
       8:\t3f d9       \trcall\t.-3458   \t; 0xfffff288 <__eeprom_end+0xff7ef288>
      10:\t0e 94 0a 00 \tcall\t0x14\t; 0x14 <main>
      14:\t0e 94 a6 10 \tcall\t0x214c\t; 0x214c <callee>
      18:\t7c d0       \trcall\t.+248   \t; 0x112 <main+0xfe>
      1a:\t8c d0       \trcall\t.+280   \t; 0x134 <__udivmodqi4>
"""


def test_a_map_and_a_disassembly_are_read() -> None:
    secs = sections(MAP)
    assert [s.name for s in secs] == [".vectors", ".progmem.data", ".init9", ".text.main", ".text._ZN3gfx6textIdEhahNS_5ColorE",
                                      ".text.libgcc.div", ".text.far", ".text.callee"]  # no empty section
    assert secs[4] == Section(".text._ZN3gfx6textIdEhahNS_5ColorE", 0x114, 0x20, "/tmp/ccX.ltrans1.ltrans.o")
    assert secs[5].pattern() == "*libgcc.a:_udivmodqi4.o(.text.libgcc.div)"  # a library reuses section names
    assert secs[3].pattern() == "*(.text.main)"
    assert sites(DISASSEMBLY) == [Site(0x0, 0x14, False), Site(0x8, 0xFFFFF288, True), Site(0x10, 0x14, False), Site(0x14, 0x214C, False),
                                  Site(0x18, 0x112, True), Site(0x1A, 0x134, True)]


def test_the_layout_counts_calls_between_sections_as_unrelaxed() -> None:
    layout = Layout(sections(MAP), sites(DISASSEMBLY))
    # the vectors' jump keeps its slot, data is no code; main's rcall to itself is no call between sections
    assert len(layout.calls) == 3 and layout.relaxed == 1
    assert layout.size[layout.patterns.index("*(.text.main)")] == 0x100 + 2  # its rcall long again
    assert layout.in_reach(list(layout.movable)) == 2  # main's call to callee is 8 KB away


def test_arranging_brings_a_far_call_within_reach() -> None:
    layout = Layout(sections(MAP), sites(DISASSEMBLY))
    order = arrange(layout, rounds=200)
    assert sorted(order) == layout.movable
    assert layout.in_reach(order) == 3
    assert arrange(layout, rounds=200) == order  # deterministic


def test_the_script_lists_the_order_before_the_rest() -> None:
    default = "  .text :\n  {\n    *(.text)\n     *(.text.*)\n  }\n"
    got = script(default, ["*(.text.b)", "*libgcc.a:_x.o(.text.libgcc)", "*(.text.b)"])
    assert got == ("  .text :\n  {\n    *(.text)\n     *(.text.b)\n     *libgcc.a:_x.o(.text.libgcc)\n"
                   "     *(.text.*)\n  }\n")
    with pytest.raises(OrderError, match=r"no '\*\(\.text\.\*\)' line"):
        script("SECTIONS {}", ["*(.text.b)"])


def test_a_map_without_functions_is_refused() -> None:
    with pytest.raises(OrderError, match="no .text output section"):
        sections("nothing here")
    with pytest.raises(OrderError, match="not one run"):
        Layout(sections(MAP.replace(".text.far ", ".lowtext ")), sites(DISASSEMBLY))
