// The game app: title, menus, the table against the computer, the demo and
// the serial `play` command. The rules, deals, scoring, players and trace
// lines all come from the generated core (build/gen/whist_core.*); this file
// only shows them and turns buttons into moves.
//
// Each screen change is written to GPIOR0 (the emulator's marker register),
// so tests can follow the flow; on the device it costs one instruction.
#include <Arduino.h>
#include <string.h>

#include "buttons.h"
#include "fx.h"
#include "gfx.h"
#include "hw.h"
#include "prefs.h"
#include "replies.h"
#include "save.h"
#include "screens.h"
#include "sound.h"
#include "sprites.h"
#include "stack.h"
#include "table.h"
#include "text.h"
#include "usb.h"
#include "whist_core.h"
#if WHIST_FX
#include "fxdata.h"
#endif

namespace {

using namespace whist;

enum Screen : uint8_t {
  TITLE = 1, MENU, TABLE, PAUSE, HAND_END, GAME_OVER, SETTINGS, STATS, RULES, CREDITS, DEAL, AUTO
};

const uint16_t SND_PLAY[] PROGMEM = {sound::note(1568), 16, 0, 0};
const uint16_t SND_BOUNCE[] PROGMEM = {sound::note(196), 48, 0, 0};
const uint16_t SND_TRUMP[] PROGMEM = {sound::note(880), 32, 0, 16, sound::note(880), 32, 0, 0};
const uint16_t SND_TRICK[] PROGMEM = {sound::note(1047), 32, sound::note(1319), 48, 0, 0};
const uint16_t SND_WIN[] PROGMEM = {sound::note(523), 96, sound::note(659), 96, sound::note(784), 96, sound::note(1047), 240, 0, 0};
const uint16_t SND_LOSE[] PROGMEM = {sound::note(392), 160, sound::note(330), 160, sound::note(262), 320, 0, 0};

constexpr uint16_t DEMO_IDLE = 600;  // frames on the title before the demo starts (~10 s)

Game game;
table::View view;
Screen screen;
uint8_t wait;        // frames left before the next automatic step
uint16_t idle;       // frames on the title without a button
bool demo;           // the AUTO game is the title's demo: any button ends it
uint32_t lastSeed;   // offered by the deal-number screen
bool saved;          // a saved game exists (read by toMenu)
uint8_t settingsRow; // where the settings cursor was left
bool hidden;         // a hand played on the buttons is under way: its trace waits for its end
uint8_t pick;        // the computer's next card, searched while the table's pace was on show (NO_CARD: none yet)
#if WHIST_FX
table::Coach coach;  // the coach's judgement of the person's card in each stage-2 trick
uint8_t coachPage;   // at the hand's end: 0 the scoreboard, else the coach's page from 1
bool tipped;         // the coach's tip was shown at a stage-2 turn (once after power-on)
#endif

__attribute__((noinline)) void setScreen(Screen s) {  // smaller so (size report)
  screen = s;
  GPIOR0 = s;
}

// The search's table: the screen's pages 1-7 (thinkFrame draws page 0) and
// TABLE_ABOVE bytes of the free RAM above the screen, the last static data.
constexpr uint16_t TABLE_ABOVE = TABLE_BYTES - (sizeof hw::frame - hw::WIDTH);
static_assert(TABLE_BYTES >= sizeof hw::frame - hw::WIDTH, "the search's table fills pages 1-7 before it goes above them");
static_assert(hw::SERIAL_LINE_MAX == LINE_MAX, "the serial line buffer holds generator/codegen/protocol.py's LINE_MAX");

// Nothing of a hand played on the buttons leaves over USB before it is over
// (replayHand sends it then): no card the player has not seen.
void serialSink(char c) {
  if (!hidden) hw::serialPut(c);
}

bool fast() { return prefs::value(prefs::OPT_SPEED); }

#if WHIST_FX
// The opponent speaks: its line for this moment, chosen by the deal and the tricks played (persona.py).
void say(text::Moment m) { view.speak(table::line(game, m), fast()); }
#endif
// Frames before the computer plays when no finished trick is on show.
uint8_t aiDelay() { return fast() ? 8 : 24; }

// A press at the table ends a message and a finished trick's beat and hold.
// It is kept for the player's turn (the last one), except A before that turn
// has begun: a tap to hurry the pace never plays a card the player has not
// seen asked for.
void keepPresses() {
#if WHIST_FX
  uint8_t b = buttons::pressedNow() & ~buttons::B;  // DOWN too: the coach's hint, on a stage-2 turn
#else
  uint8_t b = buttons::pressedNow() & ~(buttons::DOWN | buttons::B);
#endif
  if (b) {
#if WHIST_FX
    if (view.speaking()) view.voiceT = 0;  // a press ends the opponent's words (A plays nothing: no turn has begun)
#endif
    view.note = 0;
    view.skip();
    if (!view.aimed) b &= ~buttons::A;
    if (b) view.pending = b;
  }
}

// While the computer searches, the screen is refreshed whenever a frame is
// due (whist::setThinkHook), so it never freezes: only its top line ("... is
// thinking" and moving dots) is drawn and sent, and the OLED keeps the table
// it showed. The rest of hw::frame is the stage-2 search's table
// (whist::setTableMemory), so a search leaves it to be cleared. The pace on
// show goes on meanwhile (the hold of a finished trick, the computer's
// pause) and a press is kept, so the search adds nothing to the player's wait.
void thinkFrame() {
  if (!hw::frameReady()) return;
  keepPresses();
  view.paced(wait);
  view.drawMessage(game);
  hw::displayTop();
}

void afterSearch() { memset(hw::frame, 0, sizeof hw::frame); }  // loop() draws on a clear frame

// The computer's move on the table, with the screen kept alive.
uint8_t aiMove() {
  setThinkHook(thinkFrame);
  uint8_t c = chooseAI(game);
  setThinkHook(nullptr);
  afterSearch();
  return c;
}

void toTable(Screen s) {
  pick = NO_CARD;
  view.reset(prefs::value(prefs::OPT_SUITS));
  view.demo = demo && s == AUTO;
  wait = aiDelay();
  setScreen(s);
  if (s != TABLE) return;
  view.deal(game);  // a person's hand is dealt before the player's eyes (resume() takes it back)
#if WHIST_FX
  static bool greeted;  // since power-on: "Another hand, then." never opens a session
  say(game.handNo == 1 || !greeted ? text::MOMENT_FIRST : text::MOMENT_HAND);
  greeted = true;
  view.tip = !tipped && (HINT_LEVELS >> game.who[1] & 1);
#endif
}

// Deals the next hand; a person's hand keeps its trace back until it is over.
void deal() {
  hidden = game.who[0] == PLAYER_HUMAN;
#if WHIST_FX
  memset(coach.judged, table::COACH_UNJUDGED, sizeof coach.judged);
  coach.led = 0;
#endif
  beginHand(game);
}

// A game of the settings' kind; a person's is saved before its first hand (and
// each next one), so Continue can deal it and resume it (resume()).
void newGame(uint32_t seed, uint8_t p0, uint8_t p1) {
  using namespace prefs;
  lastSeed = seed;
  hidden = false;
  beginGame(game, seed, value(OPT_GAME), value(OPT_SCORING), target(), p0, p1);
  if (p0 == PLAYER_HUMAN) storeGame(game);
  deal();
}

// A new game; over a saved one only at a second A (screens::warn says why).
void startHumanGame(uint32_t seed) {
  if (saved && !screens::warn) {
    screens::warn = true;
    return;
  }
  screens::warn = false;
  newGame(seed, PLAYER_HUMAN, prefs::value(prefs::OPT_AI));
  toTable(TABLE);
}

void toMenu() {
  screens::openMenu(saved = prefs::loadGame(game));
  setScreen(MENU);
}



#if WHIST_FX
// The coach: the person's stage-2 card c judged exactly before it is played (whist::coachBest), kept for
// the page after the hand. The screen stays alive meanwhile (thinkFrame); a press only hurries the pace.
void judge(uint8_t c) {
  view.aimed = false;
  tipped = true;
  setThinkHook(thinkFrame);
  uint8_t best = coachBest(game), e = table::COACH_UNJUDGED, k = game.trickNo - handSize(game);
  int8_t lost = best == NO_CARD ? -1 : coachLoss(game, c, table::COACH_MAX_LOST);
  if (lost >= 0) e = lost ? best | (lost - 1) << 6 : table::COACH_KEPT;
  setThinkHook(nullptr);
  afterSearch();
  coach.judged[k] = e;
  if (game.lead == NO_CARD) coach.led |= 1u << k;
}

// DOWN at the table: at the easier levels, on a stage-2 turn, the cards that keep the most tricks
// marked; else a note on why there is no hint.
void hint() {
  if (!(HINT_LEVELS >> game.who[1] & 1)) return view.say(text::COACH_NO_HINT);
  if (stockLeft(game)) return view.say(text::COACH_LATER);
  if (view.hint) return;
  setThinkHook(thinkFrame);
  if (coachBest(game) != NO_CARD) view.markHint(game);
  setThinkHook(nullptr);
  afterSearch();
}
#endif

#if WHIST_FX
// What the opponent says as a trick is taken (persona.trick_moment, slam_moment): its slam or the
// player's at the hand's end, stage 2 beginning, a big face-up card taken (a queen or higher), a trick won
// by a trump on a card of another suit; its words show once the trick's winner is framed.
void speakOf(uint8_t r) {
  static_assert(text::MOMENT_RUFFED == text::MOMENT_RUFFS + 16 && text::MOMENT_BIG_LOST == text::MOMENT_BIG_WON + 16 &&
                    text::MOMENT_YOUR_SLAM == text::MOMENT_SLAM + 16,
                "the player's side of a moment is the opponent's, two lines on (persona.MOMENTS)");
  const Trick& t = game.last;
  uint8_t m, v[4];
  if (r & HAND_DONE) {
    if (handReason(game, v) != REASON_SLAM) return;
    m = text::MOMENT_SLAM;  // the slam's side took the last trick too
  } else if (game.trickNo == handSize(game)) {
    return say(text::MOMENT_STAGE2);
  } else if (t.take != NO_CARD && rankOf(t.take) >= text::BIG_RANK) {
    m = text::MOMENT_BIG_WON;
  } else if (t.winner != t.leader && suitOf(t.follow) != suitOf(t.lead)) {  // the follower trumped
    m = text::MOMENT_RUFFS;
  } else {
    return;
  }
  say(text::Moment(m + (t.winner ? 0 : 16)));
}
#endif

// Plays card c for whoever is to move and reacts to what it finished.
void playCard(uint8_t c) {
  uint8_t mover = turn(game);
  if (hidden && !mover) prefs::logCard(game, c);  // a person's card: in the hand's log first
#if WHIST_FX
  if (hidden && !mover && !stockLeft(game)) judge(c);
#endif
  uint8_t r = play(game, c);
  view.played(game, r, fast());
  bool person = game.who[0] == PLAYER_HUMAN;
  wait = aiDelay();  // counted during a finished trick's pace, if one is on show
  if (r & TRICK_DONE) {
    uint8_t up = upcard(game);
    if (up != NO_CARD && suitOf(up) == game.trump) {
      view.pulse = view.trickT;
      sound::play(SND_TRUMP);
    } else if (game.last.winner == 0 && person) {
      sound::play(SND_TRICK);
    }
  } else {
    if (mover == 1 && suitOf(c) == game.trump && person) {
      view.pulse = wait;
      sound::play(SND_TRUMP);
    } else {
      sound::play(SND_PLAY);
    }
  }
#if WHIST_FX
  if ((r & TRICK_DONE) && screen == TABLE) speakOf(r);
#endif
  if ((r & HAND_DONE) && screen == TABLE) {
    hidden = false;
    replayHand(game);
    prefs::recordHand(game);
    if (game.winner == NO_WINNER) prefs::storeGame(game);
    else prefs::eraseGame();
  }
}

// The computer's next card, searched as soon as the table it answers is on
// the OLED (a finished trick once its winner is framed), so the search runs
// during the pace; the card is played when the pace is over.
void think() {
  if (pick == NO_CARD && turn(game) && view.ready()) pick = aiMove();
}

// One step of the human's table: the buttons or the computer's move. A press
// made while the table is busy (the computer's pause, a finished trick on
// show) hurries it; LEFT, RIGHT and UP are kept, the last one, and acted on
// when the player's turn comes (keepPresses).
void stepTable() {
  view.review = buttons::pressed(buttons::B);
  keepPresses();
  think();  // the search reads the buttons too
  if (view.pending == buttons::UP) {
    view.pending = 0;
    setScreen(PAUSE);
    return;
  }
  if (wait) wait--;  // the computer's pause, within a finished trick's pace if one is on show
  if (view.step()) return;
  if (view.handOver) {
    uint8_t v[4];
    if (handReason(game, v) == REASON_SLAM) sound::play(SND_WIN);  // a slam's fanfare
#if WHIST_FX
    coachPage = 0;
#endif
    setScreen(HAND_END);
    return;
  }
  if (turn(game) != 0) {
    if (wait) return;
    playCard(pick);
    pick = NO_CARD;
    if (view.trickT) return;  // else the computer led: the cursor is aimed before "Your turn" is drawn
  }
  if (!view.aimed) {
    view.aim(game);
    GPIOR0 = MARK_TURN;
  }
  uint8_t press = view.pending;
  view.pending = 0;
  if (press == buttons::LEFT) view.move(game, -1);
  if (press == buttons::RIGHT) view.move(game, 1);
#if WHIST_FX
  if (press == buttons::DOWN) hint();
#endif
  if (press == buttons::A) {
    uint8_t c = view.selectedCard(game);
    if (!isLegal(game, c)) {
      view.bounce();
      sound::play(SND_BOUNCE);
    } else if (view.armed || prefs::value(prefs::OPT_CLICK)) {
      playCard(c);
    } else {
      view.armed = true;
    }
  }
}

// Two computers: a serial `play` game or the title's demo.
void stepAuto() {
  if (demo && buttons::state()) {
    setScreen(TITLE);
    return;
  }
  if (view.step()) return;
  if (wait) {
    wait--;
    return;
  }
  if (view.handOver) {
    if (game.winner != NO_WINNER) {
      setScreen(TITLE);
      return;
    }
    deal();
    toTable(AUTO);
    return;
  }
  playCard(aiMove());
}

// Starts a computer-vs-computer game asked for on USB serial.
void startSerialGame(const PlayCommand& cmd) {
  demo = false;
  hidden = false;
  beginGame(game, cmd.seed, cmd.deck, cmd.scoring, cmd.target, cmd.p0, cmd.p1);
  if (cmd.fast) {  // the whole game now, without frames
    do {
      beginHand(game);
      uint8_t r;
      do {
        GPIOR0 = MARK_THINK;
        uint8_t c = chooseAI(game);
        GPIOR0 = MARK_MOVED;
        r = play(game, c);
      } while (!(r & HAND_DONE));
    } while (game.winner == NO_WINNER);
    afterSearch();
    setScreen(TITLE);
    return;
  }
  beginHand(game);
  toTable(AUTO);
}

// Answer codes beyond the protocol's error codes (replies.h).
constexpr uint8_t REPLY_STACK = 0x40, REPLY_PLAY = 0x41;
PlayCommand queued;  // what the REPLY_PLAY in the queue starts
bool playQueued;

// The answer a line is owed (a valid play is kept in `queued`; one at a time).
uint8_t command(const char* line, bool overlong) {
  if (overlong) return ERROR_LONG;
  if (isText(line, text::TRACE_STACK)) return REPLY_STACK;
  PlayCommand cmd;
  uint8_t err = parsePlay(line, cmd);
  if (err) return err;
  if (playQueued) return ERROR_BUSY;
  queued = cmd;
  playQueued = true;
  return REPLY_PLAY;
}

// A person's game on the screen: no serial command may change it.
bool personPlaying() { return screen >= TABLE && screen <= GAME_OVER; }

// Answers one line, even during a hand whose trace is kept back.
void answer(uint8_t code) {
  if (code == REPLY_PLAY) {
    playQueued = false;
    if (!personPlaying()) return startSerialGame(queued);
    code = ERROR_BUSY;
  }
  if (!code) return;
  bool h = hidden;
  hidden = false;
  if (code == REPLY_STACK) {  // a test hook: the stack's high-water mark and the output lost
    printFigure(text::TRACE_FIGURE_0, stack::untouched(TABLE_ABOVE));  // protocol.FIGURES
    printFigure(text::TRACE_FIGURE_1, hw::serialDropped);
  } else {
    printError(code);
  }
  hidden = h;
}

// Reads the lines that have arrived (hw::serialLine bounds the bytes a frame;
// none while every reply slot is taken: the rest waits in the USB banks), then
// answers the oldest line owed once no input waits or no slot is left
// (replies.h says why).
void pollSerial() {
  bool overlong;
  while (!replies::full()) {
    const char* line = hw::serialLine(&overlong);
    if (!line) break;
    idle = 0;  // a host at work: the title's demo must not start between its commands
    replies::add(command(line, overlong));
  }
  if (replies::full() || !usb::waiting()) answer(replies::take());
}

// Power-on: the splash (the FX edition's, from the chip: a card turned over), then the title's fan of
// cards dealt in from its left. Any button leaves for the menu at once, as ever from the title.
#if WHIST_FX
constexpr uint8_t SPLASH_STEP = 5, SPLASH = (sprites::SPLASH_FRAMES - 1) * SPLASH_STEP + 35;
#else
constexpr uint8_t SPLASH = 0;
#endif
constexpr uint8_t FAN = 16, FAN_X = 81;  // frames, and where title.png's fan of cards starts
uint8_t intro = SPLASH + FAN;  // frames left of the power-on's splash and fan

void stepTitle() {
  static_assert(sprites::TITLE_BYTES == sizeof hw::frame, "the title fills the screen");
  if (intro) intro--;
  sprites::Bitmap art = sprites::title;
#if WHIST_FX
  static_assert(sprites::SPLASH_FRAME_BYTES == sprites::TITLE_BYTES, "the splash's frames fill the screen too");
  if (intro >= FAN) {
    uint8_t f = (SPLASH + FAN - 1 - intro) / SPLASH_STEP;
    if (f >= sprites::SPLASH_FRAMES) f = sprites::SPLASH_FRAMES - 1;
    art = sprites::splash + f * sprites::SPLASH_FRAME_BYTES;
  }
#endif
  sprites::unpack(art, hw::frame, sprites::TITLE_BYTES);
  if (intro && intro < FAN) gfx::fillRect(FAN_X + (FAN - intro) * 3, 32, hw::WIDTH, 32, gfx::BLACK);  // the fan dealt in from its left
  if (buttons::state()) idle = 0;
  if (buttons::justPressed(0xFF)) {
    intro = 0;
    toMenu();
  } else if (++idle >= DEMO_IDLE) {
    idle = 0;
    demo = true;
    uint8_t ai = prefs::value(prefs::OPT_AI);
    newGame(hw::randomSeed(), ai, ai);
    toTable(AUTO);
  }
}

// The saved hand as it was left: dealt, the person's logged cards played
// again up to the first that does not check out (another hand's, corrupt,
// illegal), the computer's found again on the way (the same searches from the
// same state give the same cards and leave the same random stream). Never its
// last trick, which would end the hand. The trace stays held back (`hidden`).
// The searches take a while at Hard (about 0.3 s a stage-1 card): meanwhile
// the screen is the resume's own page, its top line "Resuming hand 2, trick
// 18..." counting up (drawn by the searches' think hook, which keeps presses),
// and the table follows at once.
void resume() {
  deal();
  toTable(TABLE);
  view.dealT = 0;  // the hand is not dealt again before the player's eyes
  view.resuming = true;  // its own page: the top line alone (aiMove's think hook redraws it)
  afterSearch();  // a cleared frame
  view.drawMessage(game);
  hw::display();
  for (uint8_t last = 2 * handSize(game) - 1;;) {
    while (turn(game)) play(game, aiMove());
    uint8_t c = prefs::loggedCard(game);
    if (game.trickNo == last || c >= MAX_CARDS || !isLegal(game, c)) break;
    play(game, c);
  }
  view.resuming = false;
#if WHIST_FX
  if (game.trickNo) view.voiceT = 0;  // no greeting for a hand resumed after its start
#endif
  afterSearch();
  view.draw(game);  // loop() shows the table in this frame: nothing of the page or the search is left
}

void stepMenu() {
  uint8_t choice = screens::menu();
  switch (choice) {
    case screens::BACK: setScreen(TITLE); break;
    case screens::PLAY: startHumanGame(hw::randomSeed()); break;
    case screens::CONTINUE:  // toMenu() loaded the saved game
      resume();
      lastSeed = game.seed;
      break;
    case screens::DEAL:
      screens::openDeal(lastSeed);
      setScreen(DEAL);
      break;
    case screens::SETTINGS:
    case screens::STATS:
    case screens::RULES:
    case screens::CREDITS:
      screens::openList(choice == screens::STATS ? prefs::value(prefs::OPT_AI)
                        : choice == screens::SETTINGS ? settingsRow : 0);
      setScreen(Screen(SETTINGS + choice - screens::SETTINGS));
      break;
  }
}

void endHand() {
  if (game.winner != NO_WINNER) {
    sound::play(game.winner == 0 ? SND_WIN : SND_LOSE);
    setScreen(GAME_OVER);
  } else {
    deal();
    toTable(TABLE);
  }
}

// A trace comment once the host has opened the port (before that, USB serial
// drops what is written): the harnesses wait for it before sending. Not
// printed from setup(), which ProjectABE's fast-running millis() can end
// before its host opens the port (docs/emulator.md). One packet: a bank goes
// to the host only at a newline (or full), so the line is never split.
bool announced;
void announce() {
  if (announced || !usb::open()) return;
  announced = true;
  print(text::TRACE_READY);
}

#if WHIST_FX
// The chip lacks this build's data (only the hex was uploaded, or another
// game's data is where ours should be), or a part of it is damaged (an upload
// cut short): the message from program flash, the same on USB serial once a
// host opens the port, and USB kept up for the next upload. Nothing is written
// anywhere.
const char NO_DATA[] PROGMEM = "# whist error: no game data on the FX chip\n";
void noData() {
  const uint8_t* p = fxdata::MISSING;
  uint8_t* row = hw::frame + 3 * hw::WIDTH;
  for (uint8_t n; (n = pgm_read_byte(p++)); row += hw::WIDTH) {  // a line: its length, its first column, its glyphs
    for (uint8_t* at = row + pgm_read_byte(p++); n--; at += 4) memcpy_P(at, fxdata::MISSING_GLYPHS + pgm_read_byte(p++), 3);
  }
  hw::display();
  for (bool told = false;;) {
    if (!hw::nextFrame() || told || !usb::open()) continue;
    told = true;
    for (const char* s = NO_DATA; char c = pgm_read_byte(s); s++) hw::serialPut(c);
  }
}

// The whole data image summed once after an upload (fx::verify, about 4 s):
// a line and a bar, k of the image's 64 KB blocks done.
void checking(uint8_t k) {
  gfx::textId(20, 22, text::CHECKING);
  gfx::fillRect(16, 32, 2 * k, 4);
  hw::display(true);
}
#endif

}  // namespace

void setup() {
  hw::begin();
#if WHIST_FX
  // Records are made in the search's table above the screen, unused outside a search.
  static_assert(TABLE_ABOVE >= save::SCRATCH, "a save record and a log fit above the screen");
  static_assert(fxdata::DATA_PAGES / 256 * 2 <= 96, "the check's bar fits its frame");
  if (!fx::begin() || (save::begin(hw::frame + sizeof hw::frame), !fx::verify(checking))) noData();
#endif
  prefs::begin();
  setSink(serialSink);
  setTableMemory((uint32_t*)(hw::frame + hw::WIDTH));  // pages 1-7 and TABLE_ABOVE bytes beyond
  setScreen(TITLE);
}

void loop() {
  if (!hw::nextFrame()) return;
  announce();
  pollSerial();
  uint8_t r;
  switch (screen) {
    case TITLE:
      stepTitle();
      break;
    case MENU:
      stepMenu();
      break;
    case TABLE:
      stepTable();
      view.draw(game);
      break;
    case PAUSE:
      view.draw(game);
      view.drawn = false;  // the OLED shows the pause box: no search under it
      table::drawPause(game, screens::warn);
      if (buttons::justPressed(buttons::A)) {
        screens::warn = false;
        setScreen(TABLE);
      } else if (buttons::justPressed(buttons::B)) {  // leaves at the second B: Continue resumes the hand
        if (screens::warn) toMenu();
        else screens::warn = true;
      }
      break;
    case AUTO:
      stepAuto();
      view.draw(game);
      break;
    case HAND_END:
#if WHIST_FX
      if (coachPage) {  // DOWN: the coach's pages, then the scoreboard again
        bool more = table::drawCoach(game, coach, coachPage - 1);
        if (buttons::justPressed(buttons::DOWN)) coachPage = more ? coachPage + 1 : 0;
      } else {
        table::drawHandEnd(game, coach);
        if (buttons::justPressed(buttons::DOWN)) coachPage = 1;
      }
#else
      table::drawHandEnd(game);
#endif
      if (buttons::justPressed(buttons::A)) endHand();
      else if (buttons::justPressed(buttons::B) && game.winner == NO_WINNER) toMenu();
      break;
    case GAME_OVER:
      table::drawGameOver(game);
      if (buttons::justPressed(buttons::A)) {  // a rematch: the same settings, a new deal
        newGame(hw::randomSeed(), PLAYER_HUMAN, prefs::value(prefs::OPT_AI));
        toTable(TABLE);
      } else if (buttons::justPressed(buttons::B)) {
        toMenu();
      }
      break;
    case DEAL:
      r = screens::deal(&lastSeed);
      if (r == screens::PLAY) startHumanGame(lastSeed);
      else if (r == screens::BACK) toMenu();
      break;
    default:  // the list and text screens, in Screen order from SETTINGS
      r = screen == SETTINGS ? screens::settings()
          : screen == STATS  ? screens::stats()
          : screen == RULES  ? screens::rules()
                             : screens::credits();
      if (r == screens::BACK) {
        if (screen == SETTINGS) settingsRow = screens::row();
        toMenu();
      }
  }
  hw::display(true);
}
