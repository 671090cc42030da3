// Host driver for the generated core's handReason: reads lines "deck scoring mode a b points0 points1"
// (the hand's counted tricks set as stage-2 tricks, its points as the core scored them) and prints
// "kind v0 v1 v2 v3", so tests/codegen/test_codegen.py compares them with display.hand_reason.
#include <stdio.h>

#include "whist_core.h"

int main() {
  static uint32_t table[whist::TABLE_BYTES / 4];
  whist::setTableMemory(table);
  unsigned deck, scoring, mode, a, b, p0, p1;
  while (scanf("%u %u %u %u %u %u %u", &deck, &scoring, &mode, &a, &b, &p0, &p1) == 7) {
    static whist::Game g;
    g.deck = deck;
    g.scoring = scoring;
    g.mode = mode;
    g.won[0][0] = g.won[0][1] = 0;
    g.won[1][0] = a;
    g.won[1][1] = b;
    g.points[0] = p0;
    g.points[1] = p1;
    uint8_t v[4];
    unsigned kind = whist::handReason(g, v);
    printf("%u %u %u %u %u\n", kind, v[0], v[1], v[2], v[3]);
  }
  return 0;
}
