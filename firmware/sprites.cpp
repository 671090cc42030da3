// The one translation unit that holds the generated sprite data (sprites.h).
#define SPRITES_DEFINE
#include "sprites.h"
