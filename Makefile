# Whist for Arduboy. `make hex` builds the game, `make test` runs the tests;
# each installs what it lacks (Debian packages when root, a venv, npm ci).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
WHIST := $(VENV)/bin/whist
STAMP := $(VENV)/.installed
NODE_STAMP := emulator/node_modules/.package-lock.json

.PHONY: all hex test bench venv clean

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
hex: $(STAMP)
	@scripts/need-apt gcc-avr avr-libc binutils-avr arduino-core-avr
	$(WHIST) build --out build --dist distributable

# The emulator's Node dependencies (avr8js), pinned by emulator/package-lock.json.
$(NODE_STAMP): emulator/package-lock.json
	npm ci --prefix emulator --no-audit --no-fund

test: $(STAMP) $(NODE_STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(WHIST) bench

clean:
	rm -rf build .pytest_cache

.PHONY: upload
upload: hex
	$(WHIST) upload $(if $(PORT),--port $(PORT))
