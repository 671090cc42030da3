// Host driver for the generated game core: reads `play ...` lines on stdin and
// prints each game's trace (or an error line) on stdout, as the firmware does
// over USB serial. After every searching decision it adds a comment line
// "# work=<n>" (traces allow comments), so tests/test_players.py compares the
// search's work units with the engine's; tests/test_codegen.py compares the rest.
#include <stdio.h>
#include <string.h>

#include "whist_core.h"

static void toStdout(char c) { putchar(c); }

int main() {
  whist::setSink(toStdout);
  static uint32_t table[whist::TABLE_BYTES / 4];
  whist::setTableMemory(table);
  static whist::Game game;
  char line[512];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\r\n")] = 0;
    whist::PlayCommand cmd;
    uint8_t err = whist::parsePlay(line, cmd);
    if (err) {
      whist::printError(err);
      continue;
    }
    whist::beginGame(game, cmd.seed, cmd.deck, cmd.scoring, cmd.target, cmd.p0, cmd.p1);
    for (;;) {
      whist::beginHand(game);
      uint8_t r;
      do {
        uint8_t c = whist::chooseAI(game);
        if (whist::aiWork()) printf("# work=%u\n", (unsigned)whist::aiWork());
        fflush(stdout);
        r = whist::play(game, c);
      } while (!(r & whist::HAND_DONE));
      if (r & whist::GAME_DONE) break;
    }
  }
  return 0;
}
