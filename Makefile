# A thin layer over CMake/Ninja: every target does its own set-up first, so
# `make demo` and `make test` each work on a fresh Debian 12 machine, in either order.
BUILD      ?= build
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=
CONFIGURE   = cmake -S . -G Ninja -DCMAKE_BUILD_TYPE=Release \
              -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 $(CMAKE_ARGS)

.PHONY: all setup build demo test test-sanitizers package clean

all: build

setup:
	@scripts/setup

build: setup
	@[ -f $(BUILD)/build.ninja ] || $(CONFIGURE) -B $(BUILD)
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: build, compile the bundled programs with memcoro and without,
# run them side by side, print the result table.
demo: build
	@scripts/demo $(BUILD)

# Everything CI checks: lit and differential tests, runtime unit and stress
# tests, then the runtime again under AddressSanitizer+UBSan and ThreadSanitizer.
test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory test-sanitizers

test-sanitizers: setup
	@for s in address,undefined thread; do \
	  dir=$(BUILD)-$$(echo $$s | tr -d ,); \
	  [ -f $$dir/build.ninja ] || $(CONFIGURE) -B $$dir -DMEMCORO_RUNTIME_ONLY=ON -DMEMCORO_SANITIZE=$$s >/dev/null || exit 1; \
	  cmake --build $$dir -j $(JOBS) || exit 1; \
	  echo "== runtime tests under -fsanitize=$$s"; \
	  (cd $$dir && ctest --output-on-failure -j $(JOBS) -L runtime) || exit 1; \
	done

# The Debian package, $(BUILD)/memcoro_<version>_amd64.deb (docs/install.md).
package: build
	@cmake --build $(BUILD) --target package

clean:
	rm -rf $(BUILD) $(BUILD)-addressundefined $(BUILD)-thread

# Latency sweeps over emulated far memory into bench/results/amu/ (docs/amu.md):
# the compiled kernels (Fig. 12 and Fig. 13, issue 12; about 30 s), then the
# hand-written ones with the emulator's cost (issue 7; about 2 min).
.PHONY: amu-sweep amu-sweep-compiled
amu-sweep: amu-sweep-compiled
	@python3 bench/amu/sweep.py --build $(BUILD)
amu-sweep-compiled: build
	@python3 bench/amu/compiled_sweep.py --build $(BUILD)
	@python3 bench/amu/expansion.py --build $(BUILD)

# Compiled AMU kernels (memcoro-cc -fmemcoro-amu, each scheduler) against the
# hand-written ones at 200 and 800 ns (issue 12, docs/amu.md).
.PHONY: amu-compiled
amu-compiled: build
	@bench/amu/compiled.sh $(BUILD) 200,800 fixed
