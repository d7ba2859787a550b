# gpuforge: two commands do everything on a fresh machine.
#   make run    generate, lint and co-simulate the paper's GPU-CC SM, then run the
#               paper's 3x3 convolution on the golden model
#   make test   every test (installs Verilator, yosys and iverilog if missing)
# Also: make rtl | lint | synth | bench | readme-studies | style | setup | clean

SHELL := /bin/bash
.DEFAULT_GOAL := run

CARGO    ?= cargo
GPUFORGE := $(or $(CARGO_TARGET_DIR),target)/release/gpuforge
PRESET   ?= configs/gpucc/gpucc_paper_sm.toml
CYCLES   ?= 200000
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
TOOLS    := verilator yosys iverilog clang++
# the criterion benchmarks are behind each crate's `bench` feature (criterion is not built
# by `make test`)
BENCHES  := --features gpuforge/bench,gpuforge-golden/bench,gpuforge-verif/bench
# the Debian package of a tool: its own name, but clang++ comes with clang
pkg       = $${t/clang++/clang}

.PHONY: run test rtl lint synth bench readme-studies style setup setup-slurm build clean

## setup: install the Debian packages the checks need, when missing (Verilator, yosys,
## iverilog, and clang: Verilated models build faster with it than with g++)
setup:
	@missing=""; for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || missing="$$missing $(call pkg,$$t)"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi; \
	for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || { echo "error: $$t is still missing after apt-get"; exit 1; }; done
	@command -v $(CARGO) >/dev/null 2>&1 || { echo "error: cargo not found (install Rust with rustup)"; exit 1; }

## setup-slurm: munge and Slurm for the study job-array test (which starts them); only
## `make test` needs them
setup-slurm:
	@scripts/slurm-local.sh install

build: setup
	$(CARGO) build --release --bin gpuforge

## run: the main job on the shipped default config
run: build
	$(GPUFORGE) gen $(PRESET)
	$(GPUFORGE) lint $(PRESET)
	$(GPUFORGE) cosim $(PRESET) --cycles $(CYCLES) --opt fast
	$(GPUFORGE) sim $(PRESET)

## test: all tests (cargo-nextest runs test binaries in parallel; plain cargo test otherwise)
## One cargo build of every test target first (the libraries and the test binaries in
## one invocation, so both cores stay busy while the long gpuforge-hdl compile runs),
## then the doc tests, then the suite: the run ends on the summary of the whole suite.
test: setup setup-slurm
	$(CARGO) test --workspace --no-run
	$(CARGO) test --workspace --doc
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
	  echo "$(CARGO) nextest run --workspace --no-fail-fast"; $(CARGO) nextest run --workspace --no-fail-fast; \
	else \
	  echo "$(CARGO) test --workspace --no-fail-fast"; $(CARGO) test --workspace --no-fail-fast; \
	fi

## rtl: regenerate the committed Verilog of every preset with RTL
rtl: build
	$(GPUFORGE) gen configs

## lint: verilator -Wall on every committed design, through its filelist
lint: build
	$(GPUFORGE) lint rtl_out

## synth: yosys on every committed design marked for synthesis in its manifest, cell
## reports (whole NoC meshes are a million generic cells and more and are not marked:
## `gpuforge synth rtl_out/<preset>/<design>` synthesizes one anyway)
synth: build
	$(GPUFORGE) synth rtl_out

## style: the Rust sources are rustfmt-clean (rustfmt.toml) and clippy-clean
style:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets $(BENCHES) -- -D warnings

## bench: criterion benchmarks (ratios against baselines run in the same process)
bench: setup
	$(CARGO) bench --workspace $(BENCHES)

## readme-studies: run every shipped study, full and --quick (cached runs are reused),
## then splice their reports' tables into the README
readme-studies: build
	@for f in studies/*.toml; do n=$$(basename $$f .toml); \
	  $(GPUFORGE) study run $$n || exit 1; $(GPUFORGE) study run $$n --quick || exit 1; done
	$(GPUFORGE) study readme README.md

clean:
	$(CARGO) clean
	rm -rf cosim_out
