/* Exact stage-2 values for the PC-only players (generator/ai/native.py loads it).

   The search of generator/ai/solver.py (yes/no questions, one card per run of
   equivalent cards; in high games its quick tricks and move order), compiled
   and given a table of its own, so a PC player can value thousands of sampled
   stage-2 positions a second. Two things the device's search does not do:
   in low games (maxer != counted: both seats want as few tricks as they can
   get) the moves are ordered for ducking, and in both kinds the sure trump
   tricks bound the value from both sides. Order and bounds change only how
   much is searched: it only ever returns exact values, which are unique, so
   the Python solver and plain minimax give the same numbers
   (tests/ai/test_expert.py). */
#include <stdint.h>
#include <string.h>

#define TT_BITS 16 /* 768 KB: within a core's L2 cache, a fifth faster than 2^20 entries for 1% more nodes */
#define TT_MIN_TRICKS 3
#define SUIT 13

typedef struct {
  uint32_t key; /* live root cards and the leader; 0: empty */
  uint32_t gen; /* the solve that wrote it */
  uint8_t lo, hi;
} Entry;

static Entry tt[1u << TT_BITS];
static uint32_t gen;
static uint16_t H[2][4];
static int trump, maxer, counted;
static int duck; /* a low game: both seats want as few tricks as they can get */
static uint32_t live;  /* one bit per root card still in play */
static uint8_t pos[64]; /* card code (suit << 4 | rank) -> its bit in `live` */

static int popc(uint32_t m) { return __builtin_popcount(m); }
static uint16_t high_bit(uint16_t m) { return m ? (uint16_t)(1u << (31 - __builtin_clz(m))) : 0; }

/* The lowest card of each run of `mine` among the `live` cards (solver.run_lows). */
static uint16_t run_lows(uint16_t mine, uint16_t lv) {
  uint16_t g = mine, holes = (uint16_t)~lv;
  g |= (uint16_t)(g << 1) & holes;
  holes &= (uint16_t)(holes << 1);
  g |= (uint16_t)(g << 2) & holes;
  holes &= (uint16_t)(holes << 2);
  g |= (uint16_t)(g << 4) & holes;
  holes &= (uint16_t)(holes << 4);
  g |= (uint16_t)(g << 8) & holes;
  return mine & (uint16_t)~(g << 1);
}

static uint16_t above(uint16_t mine, uint16_t theirs) {
  return theirs ? mine & (uint16_t)~((high_bit(theirs) << 1) - 1) : mine;
}

static int quick_tricks(const uint16_t *L, const uint16_t *O) {
  int q = popc(above(L[trump], O[trump]));
  int drawn = q >= popc(O[trump]);
  for (int s = 0; s < 4; s++) {
    if (s == trump) continue;
    int k = popc(above(L[s], O[s])), o = popc(O[s]);
    q += drawn || k < o ? k : o;
  }
  return q;
}

/* Tricks x's trumps win whatever either seat plays: a trump wins its trick unless the other seat's
   higher trump is played to the same trick, so only as many of x's lose as there are pairs (x's, a higher
   one of y's); the most such pairs are matched from the top. */
static int sure_trumps(uint16_t x, uint16_t y) {
  int k = popc(x), waiting = 0;
  for (uint16_t both = x | y; both; both ^= high_bit(both))
    if (y & high_bit(both)) waiting++;
    else if (waiting) waiting--, k--;
  return k;
}

static int card_at(int s, uint16_t b) { return s << 4 | __builtin_ctz(b); }

static const int SUITS[4] = {0, 1, 2, 3};

/* The lowest card of each suit's runs, then the rest from the lowest, the suits in ``order``. */
static int low_then_rest(uint16_t *lows, uint8_t *out, int n, const int *order) {
  for (int i = 0; i < 4; i++) {
    int s = order[i];
    if (lows[s]) {
      uint16_t b = lows[s] & (uint16_t)-lows[s];
      lows[s] ^= b;
      out[n++] = (uint8_t)card_at(s, b);
    }
  }
  for (int i = 0; i < 4; i++)
    for (int s = order[i]; lows[s]; lows[s] &= lows[s] - 1) out[n++] = (uint8_t)card_at(s, lows[s] & (uint16_t)-lows[s]);
  return n;
}

/* Every card of ``lows``, each suit from the highest. */
static int high_first(uint16_t *lows, uint8_t *out, int n) {
  for (int s = 0; s < 4; s++)
    for (; lows[s]; lows[s] ^= high_bit(lows[s])) out[n++] = (uint8_t)card_at(s, high_bit(lows[s]));
  return n;
}

static int lead_moves(const uint16_t *mine, const uint16_t *opp, uint8_t *out) {
  uint16_t lows[4];
  int n = 0;
  for (int s = 0; s < 4; s++) lows[s] = run_lows(mine[s], mine[s] | opp[s]);
  for (int s = 0; s < 4; s++)
    if ((mine[s] & high_bit(mine[s] | opp[s])) && (opp[s] || !opp[trump] || s == trump)) {
      uint16_t b = high_bit(lows[s]);
      lows[s] ^= b;
      out[n++] = (uint8_t)card_at(s, b);
    }
  return low_then_rest(lows, out, n, SUITS);
}

/* Leads for a seat that wants no tricks: the lowest card of each suit, then the rest, the suits by the
   other seat's length, shortest first, trumps after the side suits and last the suits it is void in (it
   would discard and leave the trick to the leader). With follow_ducks, a low hand's 13-card stage-2
   starts take about a ninth of the nodes the high-game order takes. */
static int lead_ducks(const uint16_t *mine, const uint16_t *opp, uint8_t *out) {
  uint16_t lows[4], later[4] = {0, 0, 0, 0};
  int key[4], order[4];
  for (int s = 0; s < 4; s++) {
    lows[s] = run_lows(mine[s], mine[s] | opp[s]);
    key[s] = (s == trump) * 16 + popc(opp[s]);
    if (!opp[s]) later[s] = lows[s], lows[s] = 0;
  }
  for (int i = 0; i < 4; i++) { /* insertion sort, stable: ties by suit */
    int j = i;
    for (; j > 0 && key[order[j - 1]] > key[i]; j--) order[j] = order[j - 1];
    order[j] = i;
  }
  int n = low_then_rest(lows, out, 0, order);
  return low_then_rest(later, out, n, SUITS);
}

static int follow_moves(const uint16_t *mine, const uint16_t *opp, int lead, uint8_t *out) {
  uint16_t lows[4] = {0, 0, 0, 0};
  int n = 0, ls = lead >> 4;
  uint16_t lbit = (uint16_t)(1u << (lead & 15));
  if (mine[ls]) {
    lows[ls] = run_lows(mine[ls], mine[ls] | opp[ls] | lbit);
    uint16_t win = lows[ls] & (uint16_t)~(2 * lbit - 1);
    if (win) {
      uint16_t b = win & (uint16_t)-win;
      lows[ls] ^= b;
      out[n++] = (uint8_t)card_at(ls, b);
    }
    return low_then_rest(lows, out, n, SUITS);
  }
  for (int s = 0; s < 4; s++) lows[s] = run_lows(mine[s], mine[s] | opp[s]);
  if (lows[trump]) {
    uint16_t b = lows[trump] & (uint16_t)-lows[trump];
    lows[trump] ^= b;
    out[n++] = (uint8_t)card_at(trump, b);
  }
  return low_then_rest(lows, out, n, SUITS);
}

/* Replies for a seat that wants no trick: the highest card under the lead, then the others from the
   highest (when none is under, the highest wins the trick it must win); void, the highest card of each
   side suit, the other discards from the highest, and last the trumps, which would win it. */
static int follow_ducks(const uint16_t *mine, const uint16_t *opp, int lead, uint8_t *out) {
  uint16_t lows[4] = {0, 0, 0, 0};
  int n = 0, ls = lead >> 4;
  uint16_t lbit = (uint16_t)(1u << (lead & 15));
  if (mine[ls]) {
    lows[ls] = run_lows(mine[ls], mine[ls] | opp[ls] | lbit);
    uint16_t under = high_bit(lows[ls] & (uint16_t)(lbit - 1));
    if (under) {
      lows[ls] ^= under;
      out[n++] = (uint8_t)card_at(ls, under);
    }
    return high_first(lows, out, n);
  }
  for (int s = 0; s < 4; s++) lows[s] = run_lows(mine[s], mine[s] | opp[s]);
  uint16_t ruffs[4] = {0, 0, 0, 0};
  ruffs[trump] = lows[trump];
  lows[trump] = 0;
  for (int s = 0; s < 4; s++)
    if (lows[s]) {
      uint16_t b = high_bit(lows[s]);
      lows[s] ^= b;
      out[n++] = (uint8_t)card_at(s, b);
    }
  n = high_first(lows, out, n);
  return high_first(ruffs, out, n);
}

static int beats(int a, int b) { return (a >> 4) == (b >> 4) ? b > a : (b >> 4) == trump; }

static void flip(int seat, int e) {
  H[seat][e >> 4] ^= (uint16_t)(1u << (e & 15));
  live ^= 1u << pos[e];
}

/* The endgame tables (endgame.py's file, read in place) during an exact_tables() call: the search reads
   the exact value of a position of K tricks or fewer instead of searching it (hard-ceiling's 13-card
   solves take about a sixth of the time). The index is endgame.c's, as endgame.Tables.index computes it. */
static const uint8_t *tab_data;
static int tab_k;
static uint32_t tab_off[16], tab_binom[17][9];

/* The leader's tricks from the tables, n <= tab_k tricks left. */
static int table_value(int leader, int n) {
  int len[4], o[3], k = 1;
  uint32_t pat[4];
  for (int u = 0; u < 4; u++) {
    int s = u == 0 ? trump : u <= trump ? u - 1 : u; /* the trump suit, then the others in order */
    uint16_t m = H[leader][s], lv = H[0][s] | H[1][s];
    uint32_t p = 0;
    int i = 0;
    for (; lv; lv &= lv - 1, i++)
      if (m & lv & (uint16_t)-lv) p |= 1u << i;
    len[u] = i, pat[u] = p;
  }
  for (int u = 1; u < 4; u++) { /* insertion sort, stable: the longest first, ties in order */
    int j = k - 1;
    for (; j > 0 && len[o[j - 1]] < len[u]; j--) o[j] = o[j - 1];
    o[j] = u, k++;
  }
  uint32_t x = pat[0];
  int at = len[0];
  for (int i = 0; i < 3; i++) x |= pat[o[i]] << at, at += len[o[i]];
  int t = len[0], a = len[o[0]], b = len[o[1]];
  uint32_t split = tab_data[8 + 8 * tab_k + ((n - 1) * (SUIT + 1) + t) * (SUIT + 1) + a] + (uint32_t)(b - (2 * n - t - a + 1) / 2);
  uint32_t rank = 0;
  for (int p = 0, i = 1; x; p++, x >>= 1)
    if (x & 1) rank += tab_binom[p][i++];
  uint32_t idx = split * tab_binom[2 * n][n] + rank;
  uint8_t byte = tab_data[tab_off[(duck ? tab_k : 0) + n - 1] + (idx >> 1)];
  return idx & 1 ? byte >> 4 : byte & 15;
}

static Entry *slot(uint32_t key) { return &tt[(key * 0x9E3779B1u) >> (32 - TT_BITS)]; }

static int ge(int leader, int need, int n);

/* After `leader` led `a`: the answer over the follower's replies (solver.Search.replies). */
static int replies(int leader, int a, int need, int n) {
  uint8_t follows[13];
  int follower = 1 - leader, picks = follower == maxer;
  int f = duck ? follow_ducks(H[follower], H[leader], a, follows) : follow_moves(H[follower], H[leader], a, follows);
  for (int j = 0; j < f; j++) {
    int b = follows[j];
    flip(follower, b);
    int w = beats(a, b) ? follower : leader;
    int ok = ge(w, need - (w == counted), n - 1);
    flip(follower, b);
    if (ok == picks) return ok;
  }
  return !picks;
}

/* Can `maxer` make `counted` take `need` of the `n` tricks left, `leader` to lead? (solver.Search.ge) */
static int ge(int leader, int need, int n) {
  const uint16_t *mine = H[leader], *opp = H[1 - leader];
  if (need <= 0) return 1;
  if (need > n) return 0;
  if (n <= tab_k) {
    int v = table_value(leader, n);
    return (leader == counted ? v : n - v) >= need;
  }
  if (counted == maxer) {
    int q = quick_tricks(mine, opp);
    if (leader == counted) {
      if (q >= need) return 1;
    } else if (n - q < need) {
      return 0;
    }
  }
  { /* counted takes at least its sure trump tricks and at most all but the other seat's */
    uint16_t tc = H[counted][trump], to = H[1 - counted][trump];
    if (popc(tc) >= need && sure_trumps(tc, to) >= need) return 1;
    if (n - popc(to) < need && n - sure_trumps(to, tc) < need) return 0;
  }
  Entry *e = 0;
  uint32_t key = 0;
  if (n >= TT_MIN_TRICKS) {
    key = live << 1 | (uint32_t)leader | 0x80000000u;
    e = slot(key);
    if (e->gen == gen && e->key == key) {
      if (e->lo >= need) return 1;
      if (e->hi < need) return 0;
    }
  }
  uint8_t leads[13];
  int m = duck ? lead_ducks(mine, opp, leads) : lead_moves(mine, opp, leads), picks = leader == maxer, result = !picks;
  for (int i = 0; i < m; i++) {
    int a = leads[i];
    flip(leader, a);
    int ok = replies(leader, a, need, n);
    flip(leader, a);
    if (ok == picks) {
      result = ok;
      break;
    }
  }
  if (e) {
    int lo = 0, hi = n;
    if (e->gen == gen && e->key == key) lo = e->lo, hi = e->hi;
    if (result && lo < need) lo = need;
    if (!result && hi > need - 1) hi = need - 1;
    e->key = key;
    e->gen = gen;
    e->lo = (uint8_t)lo;
    e->hi = (uint8_t)hi;
  }
  return result;
}

static void setup(const uint16_t *h0, const uint16_t *h1, int trump_suit, int maxer_seat, int counted_seat) {
  memcpy(H[0], h0, sizeof H[0]);
  memcpy(H[1], h1, sizeof H[1]);
  trump = trump_suit;
  maxer = maxer_seat;
  counted = counted_seat;
  duck = maxer != counted;
  int bit = 0;
  for (int s = 0; s < 4; s++)
    for (int r = 0; r < 13; r++)
      if ((H[0][s] | H[1][s]) >> r & 1) pos[s << 4 | r] = (uint8_t)bit++;
  live = bit == 32 ? 0xFFFFFFFFu : (1u << bit) - 1;
  if (++gen == 0) { /* wrapped: forget everything */
    memset(tt, 0, sizeof tt);
    gen = 1;
  }
}

/* Tricks `counted` takes from a trick boundary, `leader` to lead, with `maxer`
   making it take as many as it can and the other seat as few. The questions
   start at `guess` (a good one saves a tenth of the work; any gives the
   same value) and go up, or down, to the first change of answer. */
int exact_from(const uint16_t *h0, const uint16_t *h1, int trump_suit, int leader, int maxer_seat, int counted_seat,
               int guess) {
  setup(h0, h1, trump_suit, maxer_seat, counted_seat);
  int n = 0;
  for (int s = 0; s < 4; s++) n += popc(h0[s]);
  int v = guess < 0 ? 0 : guess > n ? n : guess;
  if (v > 0 && !ge(leader, v, n)) {
    do v--; while (v > 0 && !ge(leader, v, n));
    return v;
  }
  while (v < n && ge(leader, v + 1, n)) v++;
  return v;
}

/* exact_from() reading the endgame tables `data` (endgame.py's whole file) below their K tricks. */
int exact_tables(const uint16_t *h0, const uint16_t *h1, int trump_suit, int leader, int maxer_seat, int counted_seat,
                 int guess, const uint8_t *data) {
  if (!tab_binom[0][0])
    for (int m = 0; m <= 16; m++)
      for (int i = 0; i <= 8; i++) tab_binom[m][i] = i == 0 ? 1 : m == 0 ? 0 : tab_binom[m - 1][i - 1] + tab_binom[m - 1][i];
  tab_data = data;
  tab_k = data[4];
  for (int i = 0; i < 2 * tab_k; i++)
    tab_off[i] = (uint32_t)data[8 + 4 * i] | (uint32_t)data[9 + 4 * i] << 8 | (uint32_t)data[10 + 4 * i] << 16 |
                 (uint32_t)data[11 + 4 * i] << 24;
  int v = exact_from(h0, h1, trump_suit, leader, maxer_seat, counted_seat, guess);
  tab_k = 0;
  return v;
}

int exact_value(const uint16_t *h0, const uint16_t *h1, int trump_suit, int leader, int maxer_seat, int counted_seat) {
  return exact_from(h0, h1, trump_suit, leader, maxer_seat, counted_seat, 0);
}

/* The rest of a sampled stage 1, for the review's stage-1 estimate (estimate.deal_points): in Python it
   took a third of a review's time. Cards are coded 13 suit + rank as in Python. */

/* A card's worth to rollout.policy: 12 less the live cards of its suit above it outside `mine`, plus the
   trump bonus. */
static int worth(const uint16_t *mine, const uint16_t *lv, int s, int r, int tr, int wt) {
  uint16_t above = (uint16_t)(lv[s] & ~mine[s] & ~((2u << r) - 1));
  return 12 - popc(above) + (s == tr ? wt : 0);
}

static int beats13(int lead, int c, int tr) {
  int ls = lead / 13, cs = c / 13;
  return cs == ls ? c > lead : cs == tr;
}

/* rollout.policy, card for card: the cards are visited in card order and only a strictly better one
   replaces, so ties go to the first, as in Python. */
static int policy(const uint16_t *mine, const uint16_t *lv, int up, int tr, int lead, int wt, int want,
                  int spend) {
  int us = up / 13, ur = up % 13, cnt = 0, total = 0;
  for (int s = 0; s < 4; s++) {
    uint16_t unseen = (uint16_t)(lv[s] & ~mine[s]);
    if (s == us) unseen &= (uint16_t)~(1u << ur);
    int n = popc(unseen);
    cnt += n;
    total += 12 * n - n * (n - 1) / 2 + (s == tr ? wt * n : 0);
    if (s == us) total -= popc(unseen & ((1u << ur) - 1));
  }
  int gain4 = 4 * (worth(mine, lv, us, ur, tr, wt) * cnt - total);
  int only = lead >= 0 && mine[lead / 13] ? lead / 13 : -1;
  int cheap = -1, win = -1, lose = -1, sure = -1, top = -1, high = -1;
  int v_cheap = 127, v_win = 127, v_lose = 127, v_high = -1;
  for (int s = 0; s < 4; s++) {
    if (only >= 0 && s != only) continue;
    for (uint16_t m = mine[s]; m; m &= (uint16_t)(m - 1)) {
      int r = __builtin_ctz(m), c = 13 * s + r, v = worth(mine, lv, s, r, tr, wt);
      if (v < v_cheap) v_cheap = v, cheap = c;
      if (v > v_high) v_high = v, high = c;
      if (s != tr && v == 12 && sure < 0) sure = c;
      if (s == tr && v == 12 + wt && top < 0) top = c;
      if (lead < 0) continue;
      if (beats13(lead, c, tr)) {
        if (v < v_win) v_win = v, win = c;
      } else if (v < v_lose) {
        v_lose = v, lose = c;
      }
    }
  }
  if (lead < 0) {
    if (gain4 < 4 * cnt * want) return cheap;
    return sure >= 0 ? sure : top >= 0 ? top : high;
  }
  if (win < 0 || lose < 0) return cheap;
  return gain4 >= cnt * (4 * want + spend * (v_win - v_lose)) ? win : lose;
}

/* estimate.deal_points' stage 1: `first` for the seat to move, then rollout.policy for both seats with
   the hands open, until the stock is gone. `cards` is the face-up card then the hidden stock, top first;
   `h0`, `h1` and `lv` (the live cards) are played on in place and `won` counts the tricks. Returns the
   seat that leads stage 2. */
int stage1_playout(uint16_t *h0, uint16_t *h1, uint16_t *lv, const int *cards, int ncards, int tr, int leader,
                   int lead, int first, int wt, int want, int spend, int *won) {
  uint16_t *h[2] = {h0, h1};
  for (int pos = 0; pos < ncards;) {
    int p = lead < 0 ? leader : 1 - leader;
    int c = first >= 0 ? first : policy(h[p], lv, cards[pos], tr, lead, wt, want, spend);
    first = -1;
    h[p][c / 13] ^= (uint16_t)(1u << c % 13);
    lv[c / 13] ^= (uint16_t)(1u << c % 13);
    if (lead < 0) {
      lead = c;
      continue;
    }
    if (beats13(lead, c, tr)) leader = p;
    won[leader]++;
    int take = cards[pos], draw = cards[pos + 1];
    h[leader][take / 13] |= (uint16_t)(1u << take % 13);
    h[1 - leader][draw / 13] |= (uint16_t)(1u << draw % 13);
    pos += 2;
    lead = -1;
  }
  return leader;
}

#define JUDGE_SIZE 25 /* judge.SIZE */

/* The judge's play-on (generator/ai/judge.py, card for card): stage 2 from a trick boundary, both hands
   open, by one rule for both seats until `stop` cards a hand are left. Cards are coded 13 suit + rank. */

/* judge.lead: each suit's highest card, then its lowest, scored by judge.lead_features against `w`
   (judge.SIZE weights: one per kind of suit, top and highness, then one per card of length margin); the
   first of the highest score. */
static int judge_lead(const uint16_t *a, const uint16_t *b, int tr, const int *w) {
  int best = 0, card = -1, ta = popc(a[tr]), tb = popc(b[tr]);
  for (int s = 0; s < 4; s++) {
    if (!a[s]) continue;
    int kind = s == tr ? (!tb ? 2 : ta > tb ? 0 : 1) : !b[s] ? (tb ? 3 : 4) : 5;
    int hi = 31 - __builtin_clz(a[s]), lo = __builtin_ctz(a[s]);
    int base = w[JUDGE_SIZE - 1] * (popc(a[s]) - popc(b[s]));
    for (int k = 0; k < 2; k++) {
      int r = k ? lo : hi;
      if (k && lo == hi) break;
      int sc = base + w[4 * kind + 2 * !(b[s] >> r) + !k];
      if (card < 0 || sc > best) best = sc, card = 13 * s + r;
    }
  }
  return card;
}

/* judge.follow. */
static int judge_follow(const uint16_t *a, int lead, int tr, int low) {
  int s = lead / 13, r = lead % 13;
  uint16_t m = a[s];
  if (m) {
    if (!low) {
      uint16_t win = (uint16_t)(m >> (r + 1));
      return 13 * s + (win ? r + 1 + __builtin_ctz(win) : __builtin_ctz(m));
    }
    uint16_t under = m & (uint16_t)((1u << r) - 1);
    return 13 * s + 31 - __builtin_clz(under ? under : m);
  }
  int pick = -1, key = -1;
  for (int x = 0; x < 4; x++) {
    if (x == tr || !a[x]) continue;
    int k = low ? a[x] : popc(a[x]);
    if (k > key) key = k, pick = x;
  }
  if (!low && a[tr]) return 13 * tr + __builtin_ctz(a[tr]);
  if (pick < 0) return 13 * tr + 31 - __builtin_clz(a[tr]);
  return 13 * pick + (low ? 31 - __builtin_clz(a[pick]) : __builtin_ctz(a[pick]));
}

/* judge.play_on: `h0`, `h1` played on in place, `won` counting each seat's tricks; returns the seat to
   lead when `stop` cards a hand are left. */
int judge_play_on(uint16_t *h0, uint16_t *h1, int tr, int leader, int low, int stop, const int *w, int *won) {
  uint16_t *h[2] = {h0, h1};
  while (popc(h[leader][0]) + popc(h[leader][1]) + popc(h[leader][2]) + popc(h[leader][3]) > stop) {
    int a = judge_lead(h[leader], h[1 - leader], tr, w);
    h[leader][a / 13] ^= (uint16_t)(1u << a % 13);
    int b = judge_follow(h[1 - leader], a, tr, low);
    h[1 - leader][b / 13] ^= (uint16_t)(1u << b % 13);
    if (beats13(a, b, tr)) leader = 1 - leader;
    won[leader]++;
  }
  return leader;
}
