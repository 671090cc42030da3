// Host driver for the computer players: like trace_host.cpp, but after every
// searching decision it prints a comment line "# nodes=<n>" (the trace format
// allows comments), so the tests compare the node counts with the engine's.
#include <stdio.h>
#include <string.h>

#include "whist_core.h"

static void toStdout(char c) { putchar(c); }

int main() {
  whist::setSink(toStdout);
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
        if (whist::aiNodes()) printf("# nodes=%u\n", (unsigned)whist::aiNodes());
        fflush(stdout);
        r = whist::play(game, c);
      } while (!(r & whist::HAND_DONE));
      if (r & whist::GAME_DONE) break;
    }
  }
  return 0;
}
