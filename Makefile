# Whist for Arduboy. `make hex` builds the game, `make test` runs the tests;
# each installs what it lacks (Debian packages when root, a venv, npm ci).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
WHIST := $(VENV)/bin/whist
STAMP := $(VENV)/.installed
NODE_STAMP := emulator/node_modules/.package-lock.json

TOOLCHAIN := gcc-avr avr-libc binutils-avr arduino-core-avr
SEEDS ?= 1000
AI_SEEDS ?= 200
JOBS ?= auto
# Which emulator runs the hex: avr8js (our harness, faster) or projectabe
# (ProjectABE's own code, found via --projectabe, $WHIST_PROJECTABE,
# ../shared/projectabe or `whist projectabe fetch`'s cache).
EMULATOR ?= avr8js

.PHONY: all hex test bench bench-ai venv clean toolchain crosstest crosstest-ai screenshots longtest

all: hex

venv: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || scripts/need-apt python3-venv
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	@touch $@

# The AVR toolchain comes from Debian; `whist build` generates the C++ into
# build/gen, compiles firmware/ and build/gen with scripts/avr-build, checks
# the size and writes distributable/Whist.hex and Whist.arduboy.
hex: $(STAMP) $(NODE_STAMP) toolchain
	$(WHIST) build --out build --dist distributable

toolchain:
	@scripts/need-apt $(TOOLCHAIN)

# The emulator's Node dependencies (avr8js), pinned by emulator/package-lock.json.
$(NODE_STAMP): emulator/package-lock.json
	@command -v npm >/dev/null || { echo "error: Node.js 20 and npm are needed for the emulator; install them (e.g. apt-get install nodejs npm, Node >= 20.19)" >&2; exit 1; }
	npm ci --prefix emulator --no-audit --no-fund

# Spread over every core by pytest-xdist (JOBS=1 for one process); the tests of one build or
# emulator group stay on one worker (--dist loadgroup).
test: $(STAMP) $(NODE_STAMP) toolchain
	$(PY) -m pytest -q -rs -n $(JOBS) --dist loadgroup

# Long cross-test: SEEDS games over every variant, engine vs emulated firmware, the classic
# edition and then the FX edition from its package, its data on the emulated chip
# (`make crosstest EMULATOR=projectabe SEEDS=1000` in ProjectABE).
crosstest: hex $(NODE_STAMP)
	$(WHIST) crosstest --games $(SEEDS) --hex distributable/Whist.hex --emulator $(EMULATOR)
	$(WHIST) crosstest --games $(SEEDS) --arduboy distributable/ArduboyFX/WhistFX.arduboy --emulator $(EMULATOR)

# Easy and Hard on both seats, single hands (their searches dominate: about 10 games a minute).
crosstest-ai: hex $(NODE_STAMP)
	$(WHIST) crosstest --games $(AI_SEEDS) --players easy,hard --single-hand --hex distributable/Whist.hex --emulator $(EMULATOR)

# The README's pictures, taken from the real hex in the emulator (generator/targets/screenshots.py).
screenshots: hex $(NODE_STAMP)
	$(PY) -m generator.targets.screenshots distributable/Whist.hex docs/screenshots --emulator $(EMULATOR)
	$(PY) -m generator.targets.screenshots --fx distributable/ArduboyFX/WhistFX.arduboy docs/screenshots --emulator projectabe
	@# The .arduboy packages carry docs/screenshots/table.png: build them again so distributable/ stays fresh.
	$(WHIST) build --out build --dist distributable

# The slow UI runs: a Classic game through the buttons, 100,000 frames of weighted random
# buttons (hands and games finished, stack headroom and the EEPROM system bytes checked);
# the coach: Master's stage-2 loss over 200 reviewed hands against docs/ai.md's figure; the endgame
# tables against the Python solver on 100,000 random positions; the FX game through the buttons in
# avr8js and three more kinds of damaged hand log, the second build by the command line (reproducible).
longtest: $(STAMP) $(NODE_STAMP) toolchain
	WHIST_LONGTEST=1 $(PY) -m pytest -q -s -m slow

bench: hex $(NODE_STAMP)
	$(WHIST) bench --hex distributable/Whist.hex --elf build/avr/Whist.elf --think-hands 400 --review-hands 20
	$(MAKE) bench-ai

# The computer opponent: duplicate-deal win rates (every level against the original game's own code, ppot,
# among them), how often Casual picks its card, Hard's and hard-fx's stage-2 loss (docs/ai.md).
bench-ai: $(STAMP)
	$(PY) benchmarks/ai.py --deals 2000 --hands 1000 --jobs 2

clean:
	rm -rf build .pytest_cache

# make upload [FILE=distributable/ArduboyFX/WhistFX.arduboy] [PORT=/dev/ttyACM0]: FILE defaults to
# distributable/Whist.hex, the classic edition, which runs on every Arduboy.
.PHONY: upload
upload: hex
	$(WHIST) upload $(FILE) $(if $(PORT),--port $(PORT))
