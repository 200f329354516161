# The two commands of the README: `make run` and `make test`. Both set up .venv on first use.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# On a Raspberry Pi the venv sees the system's python3-picamera2 and python3-lgpio (apt packages).
ON_PI := $(shell grep -qs "Raspberry Pi" /proc/device-tree/model && echo yes)
VENV_FLAGS := $(if $(ON_PI),--system-site-packages,)

# The Pi's package versions (Bookworm: Python 3.11, NumPy < 2, OpenCV 4.11) in a second venv, from
# constraints.txt, the file the installer pins the Pi with: CI runs the whole suite there too.
PI_PYTHON ?= python3.11
PI_VENV := .venv-pi
PI_STAMP := $(PI_VENV)/.installed
TEST_ENV := SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy GPIOZERO_PIN_FACTORY=mock
FUZZ_EXAMPLES ?= 10000

.PHONY: run test lint typecheck pytest solver test-pi test-arm64 fuzz soak bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip 'setuptools>=77'
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The Rummikub solver compiled with mypyc and its C core (setup.py), again whenever one of its
# sources changed: the install compiles it once; after an edit the sources run (compiled.py) until this.
SOLVER := rules/rummikub/partition
SOLVER_SOURCES := $(wildcard $(SOLVER)/*.py $(SOLVER)/*.c)
$(SOLVER)/compiled.json: $(SOLVER_SOURCES) setup.py | $(STAMP)
	-$(BIN)/python setup.py --quiet build_ext --inplace

solver: $(SOLVER)/compiled.json

$(PI_STAMP): pyproject.toml constraints.txt
	test -x $(PI_VENV)/bin/python || $(PI_PYTHON) -m venv $(PI_VENV)
	$(PI_VENV)/bin/python -m pip install --quiet --upgrade pip 'setuptools>=77'
	$(PI_VENV)/bin/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(PI_STAMP)

# `make run ARGS='--headless --frames 300'` passes options on; without a display the simulator says how.
run: $(STAMP) solver
	$(BIN)/referee $(if $(ON_PI),,--simulate) $(ARGS)

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) solver
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy GPIOZERO_PIN_FACTORY=mock REFEREE_EXPECT_COMPILED=1 \
		$(BIN)/python -m pytest -n 2 --cov --cov-report=term:skip-covered

# The whole test suite on the Pi's versions (checked first: numpy < 2, OpenCV 4.11, Python 3.11).
test-pi: $(PI_STAMP)
	$(PI_VENV)/bin/python bench/pi_versions.py
	$(TEST_ENV) REFEREE_EXPECT_COMPILED=1 $(PI_VENV)/bin/python -m pytest -n 2

# The installer and the whole suite on aarch64 (Debian Bookworm arm64 under qemu-user; root, about an
# hour; docs/pi.md): before a change to native code, the installer, the dependencies or the nets lands.
test-arm64:
	systemd/test-arm64.sh

# The fuzz tests at 10,000+ cases each (make test runs them with a small budget and a fixed seed).
fuzz: $(STAMP)
	$(TEST_ENV) FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) nice $(BIN)/python -m pytest -p no:xdist -m fuzz -q \
		--hypothesis-show-statistics tests

# The soak: the simulator plays for SOAK_MINUTES, RSS and open files sampled (bench/soak.py).
SOAK_MINUTES ?= 5
soak: $(STAMP)
	$(TEST_ENV) nice $(BIN)/python bench/soak.py --minutes $(SOAK_MINUTES)

clean:
	rm -rf $(VENV) $(PI_VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
	rm -f $(SOLVER)/*.so $(SOLVER)/compiled.json
