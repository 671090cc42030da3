/* The endgame tables: the exact stage-2 value of every position with K tricks or fewer left
   (generator/ai/endgame.py loads this, compiled as native.py compiles exact.c).

   A position is kept only as far as play can tell it apart: in each suit the order of the
   live cards and whose each is (relative ranks: which cards were played does not matter),
   the trump suit apart and the three others interchangeable, so they are sorted by length.
   Its index, within the block of its number of tricks left n:

     split * C(2n, n) + colex rank of its 2n-bit pattern

   The pattern holds a bit per live card, set for the leader's: the trump suit's cards in the
   low bits (from its lowest card), then the longest other suit's, the next and the shortest.
   The split (t, a, b, c: the trump suit's length and the others', a >= b >= c) counts in
   the order of t, a, b; FIRST[n][t][a] is where the splits of (t, a) start, at the
   smallest b. The value is the leader's tricks: in a high game each seat takes as many as
   it can, in a low game as few. Each block is filled from the one of n - 1 by playing every
   card the rules allow (the engine's: follow suit if you can; the higher card of the suit
   led wins, or the trump). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_K 8
#define SUIT 13

static uint32_t binom[2 * MAX_K + 1][MAX_K + 1];
static uint8_t first[MAX_K + 1][SUIT + 1][SUIT + 1];
static int splits[MAX_K + 1];
static uint8_t split_len[MAX_K + 1][256][4];
static uint8_t *vals[2][MAX_K + 1];

static uint32_t colex(uint32_t x) {
  uint32_t r = 0;
  int i = 1;
  for (int p = 0; x; p++, x >>= 1)
    if (x & 1) r += binom[p][i++];
  return r;
}

static void setup(int k) {
  for (int m = 0; m <= 2 * MAX_K; m++)
    for (int i = 0; i <= MAX_K; i++) binom[m][i] = i == 0 ? 1 : m == 0 ? 0 : binom[m - 1][i - 1] + binom[m - 1][i];
  for (int n = 1; n <= k; n++) {
    int count = 0;
    for (int t = 0; t <= SUIT; t++)
      for (int a = 0; a <= SUIT; a++) {
        int r = 2 * n - t - a;
        first[n][t][a] = (uint8_t)count;
        if (r < 0) continue;
        for (int b = (r + 1) / 2; b <= a && b <= r; b++) {
          split_len[n][count][0] = (uint8_t)t;
          split_len[n][count][1] = (uint8_t)a;
          split_len[n][count][2] = (uint8_t)b;
          split_len[n][count][3] = (uint8_t)(r - b);
          count++;
        }
      }
    splits[n] = count;
  }
}

/* The index of a position of n tricks: its suits' lengths len[0] (trump) and len[1..3] in any order,
   pat[s] the leader's cards among each suit's live cards. */
static uint32_t index_of(int n, const int *len, const uint32_t *pat) {
  int o[3] = {1, 2, 3};
  for (int i = 0; i < 2; i++) /* stable: longest first */
    for (int j = 0; j < 2 - i; j++)
      if (len[o[j]] < len[o[j + 1]]) {
        int x = o[j];
        o[j] = o[j + 1];
        o[j + 1] = x;
      }
  uint32_t x = pat[0];
  int at = len[0];
  for (int i = 0; i < 3; i++) {
    x |= pat[o[i]] << at;
    at += len[o[i]];
  }
  int t = len[0], a = len[o[0]], b = len[o[1]], r = 2 * n - t - a;
  uint32_t split = first[n][t][a] + (uint32_t)(b - (r + 1) / 2);
  return split * binom[2 * n][n] + colex(x);
}

static uint32_t drop(uint32_t p, int j) { return (p & ((1u << j) - 1)) | (p >> (j + 1) << j); }

/* The leader's tricks after the trick (lead j of suit s, reply k of suit f) is played. */
static int after(int mode, int n, const int *len, const uint32_t *pat, int s, int j, int f, int k) {
  int follower_wins = f == s ? k > j : f == 0;
  if (n == 1) return !follower_wins;
  int nl[4];
  uint32_t np[4];
  for (int u = 0; u < 4; u++) nl[u] = len[u], np[u] = pat[u];
  if (f == s) { /* drop the higher first: the lower's place stays */
    int hi = j > k ? j : k, lo = j > k ? k : j;
    np[s] = drop(drop(np[s], hi), lo);
    nl[s] -= 2;
  } else {
    np[s] = drop(np[s], j);
    nl[s]--;
    np[f] = drop(np[f], k);
    nl[f]--;
  }
  if (follower_wins)
    for (int u = 0; u < 4; u++) np[u] = ~np[u] & ((1u << nl[u]) - 1);
  int v = vals[mode][n - 1][index_of(n - 1, nl, np)];
  return follower_wins ? n - 1 - v : 1 + v;
}

/* The leader's tricks in a position (mode 0: high, both seats take the most; 1: low, the fewest). */
static int value(int mode, int n, const int *len, const uint32_t *pat) {
  int best = mode ? n : 0;
  for (int s = 0; s < 4; s++)
    for (int j = 0; j < len[s]; j++) {
      if (!(pat[s] >> j & 1)) continue;
      uint32_t theirs = ~pat[s] & ((1u << len[s]) - 1) & ~(1u << j);
      int worst = mode ? 0 : n;
      for (int f = 0; f < 4; f++) {
        if (theirs && f != s) continue;
        uint32_t reply = f == s ? theirs : ~pat[f] & ((1u << len[f]) - 1);
        for (int k = 0; k < len[f]; k++) {
          if (!(reply >> k & 1)) continue;
          int v = after(mode, n, len, pat, s, j, f, k);
          if (mode ? v > worst : v < worst) worst = v;
        }
      }
      if (mode ? worst < best : worst > best) best = worst;
    }
  return best;
}

static void fill(int mode, int n) {
  uint32_t per = binom[2 * n][n];
  for (int sp = 0; sp < splits[n]; sp++) {
    int len[4];
    for (int u = 0; u < 4; u++) len[u] = split_len[n][sp][u];
    uint32_t x = (1u << n) - 1, rank = 0;
    while (x < (1u << (2 * n))) {
      uint32_t pat[4];
      for (int u = 0, at = 0; u < 4; at += len[u], u++) pat[u] = x >> at & ((1u << len[u]) - 1);
      vals[mode][n][sp * per + rank] = (uint8_t)value(mode, n, len, pat);
      rank++;
      uint32_t c = x & -x, r = x + c; /* the next pattern with n bits set, in colex order */
      x = (((r ^ x) >> 2) / c) | r;
    }
  }
}

/* Entries of the block of n tricks (k >= n), after endgame_setup(k). */
uint32_t endgame_entries(int n) { return (uint32_t)splits[n] * binom[2 * n][n]; }

/* Where the splits of (t, a) start in the block of n tricks. */
int endgame_first(int n, int t, int a) { return first[n][t][a]; }

int endgame_setup(int k) {
  if (k < 1 || k > MAX_K) return -1;
  setup(k);
  return 0;
}

/* Fill every block of mode `mode` up to k tricks; each block's values go to `out[n - 1]`
   (endgame_entries(n) bytes, a value a byte). */
int endgame_fill(int k, int mode, uint8_t **out) {
  for (int n = 1; n <= k; n++) {
    vals[mode][n] = out[n - 1];
    fill(mode, n);
  }
  return 0;
}

/* The index of a position (for the tests: endgame.py computes it too). */
uint32_t endgame_index(int n, const int *len, const uint32_t *pat) { return index_of(n, len, pat); }
