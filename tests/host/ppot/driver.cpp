// Drives the original Arduboy Whist's opponent (../shared/ppot, compiled
// unmodified) the way its game does, one command a line on stdin; prints
// the card of each decision. Card and suit numbers are the original's.
//   R p          resetHand(false) for seat p's opponent object (a new hand)
//   H p n        addToHand(n)
//   P p n        addToPrev(n)                  (after each stage-1 trick)
//   X p n        removeFromHand(getCardIndex(n))  (the card it played)
//   V p s        setSuitOpponent(s)            (stage 2: its lead not followed)
//   1 p t u l    print playCard_PhaseOne(t, u, l)   (l = 255 when it leads)
//   2 p t l      print playCard_PhaseTwo(t, l)
#include <stdio.h>
#include "entities/Player.h"

static Player seat[2];

int main() {
  char op[2];
  unsigned p, a, b, c;
  while (scanf("%1s %u", op, &p) == 2 && p < 2) {
    Player& me = seat[p];
    switch (op[0]) {
      case 'R': me.resetHand(false); break;
      case 'H': scanf("%u", &a); me.addToHand(a); break;
      case 'P': scanf("%u", &a); me.addToPrev(a); break;
      case 'X': scanf("%u", &a); me.removeFromHand(me.getCardIndex(a)); break;
      case 'V': scanf("%u", &a); me.setSuitOpponent(static_cast<Suit>(a)); break;
      case '1':
        scanf("%u %u %u", &a, &b, &c);
        printf("%u\n", me.playCard_PhaseOne(static_cast<Suit>(a), b, c));
        break;
      case '2':
        scanf("%u %u", &a, &b);
        printf("%u\n", me.playCard_PhaseTwo(static_cast<Suit>(a), b));
        break;
      default: fprintf(stderr, "bad command %s\n", op); return 1;
    }
  }
  return 0;
}
