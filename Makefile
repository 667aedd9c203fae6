# midfold — build the wasm module, run the native and JS tests.
#   make          build wasm/midfold.wasm, midfold-lite.wasm, midfold-estimate.wasm and
#                 midfold-memory.wasm (fetches cJSON from Debian's archive first)
#   make test     native tests under ASan+UBSan and valgrind, fuzz smoke, the node --test suites
#                 (on a pinned Node 24 it installs into build/; make test-js NODE=node uses yours)
#   make demo     serve the demo page on 127.0.0.1 and print its URL (no API key needed)
#   make demo-cli compact the bundled sample conversation in the terminal
#   make bench    benchmark tables (never part of make test)
#   make unicode-tables  regenerate src/unicode_tables.c from Node's Unicode data

CJSON_DIR := third_party/cjson
BUILD := build
SRC := $(wildcard src/*.c)
HDR := $(wildcard src/*.h)

# emcc's JS optimizer needs Debian's acorn.
export NODE_PATH=/usr/share/nodejs

EMCC ?= emcc
CC_NATIVE ?= clang
# cJSON parses numbers with midfold's strtod (src/strtod.c): libc's pulls long-double
# soft-float into the wasm module.
CJSON_FLAGS := -Dstrtod=mf_strtod -DCJSON_NESTING_LIMIT=1000
CWARN := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer

# midfold-lite.wasm, the browser entry's default, is the full module without validation and
# the digest (wasm/bridge_full.c): a page that estimates and compacts downloads 20 KB less.
# midfold-estimate.wasm (the browser's initEstimator()) is the lite one without compaction
# (wasm/bridge_compact.c): a page that only estimates downloads another 13.5 KB less.
# Each module's exports are written once, in js/core/tiers.js (the loader tells a module's
# tier by the same lists): the quoted names of its `NAME_EXPORTS = '...'` line.
tier_exports = $(shell sed -n "s/^export const $(1)_EXPORTS = '\(.*\)';$$/\1/p" js/core/tiers.js)
WASM_ESTIMATE_EXPORTS := $(call tier_exports,ESTIMATE)
WASM_LITE_EXPORTS := $(WASM_ESTIMATE_EXPORTS) $(call tier_exports,LITE)
WASM_EXPORTS := $(WASM_LITE_EXPORTS) $(call tier_exports,FULL)
# The memory tool is a module of its own (wasm/bridge_memory.c): only those who import
# midfold/memory download it. Both link every object; the linker keeps what the exports reach.
WASM_MEMORY_EXPORTS := $(call tier_exports,MEMORY)
$(if $(and $(WASM_ESTIMATE_EXPORTS),$(call tier_exports,LITE),$(call tier_exports,FULL),$(WASM_MEMORY_EXPORTS)),,$(error js/core/tiers.js: an export list is missing or not on one line))
comma := ,
empty :=
space := $(empty) $(empty)
export_list = $(subst $(space),$(comma),$(foreach f,$(1),_$(f)))
# Size matters more than speed everywhere but the hot loops: those files get -O3, the
# rest -Oz; emmalloc is small, and the core allocates little (arenas). profiles.c prices
# each text once (not per byte): at -Os it is 1 KB gzipped smaller than at -O3 and as fast
# (-Oz: 4-5 % slower on the 'safe' profile); the -O3 files at -Oz would save 0.8 KB
# together but slow the fitted profiles' feature pass 1.4-1.9x (docs/download.md).
WASM_HOT := text_class text_features text_features_ascii tree_decode estimate
WASM_SMALL_HOT := profiles
WASM_CFLAGS := -msimd128 -mbulk-memory -DNDEBUG -Isrc -I$(CJSON_DIR)
WASM_LDFLAGS := -Oz -mbulk-memory -sSTANDALONE_WASM --no-entry -sMALLOC=emmalloc -sALLOW_MEMORY_GROWTH=1 \
  -sABORTING_MALLOC=0 -sTOTAL_STACK=262144 -sINITIAL_MEMORY=4194304 -sMAXIMUM_MEMORY=2147483648
WASM_CORE_OBJ := $(patsubst src/%.c,$(BUILD)/wasm/%.o,$(SRC)) $(BUILD)/wasm/cJSON.o
WASM_ESTIMATE_OBJ := $(WASM_CORE_OBJ) $(BUILD)/wasm/bridge_alloc.o $(BUILD)/wasm/bridge.o
WASM_LITE_OBJ := $(WASM_ESTIMATE_OBJ) $(BUILD)/wasm/bridge_compact.o
WASM_OBJ := $(WASM_LITE_OBJ) $(BUILD)/wasm/bridge_full.o $(BUILD)/wasm/bridge_search.o
WASM_MEMORY_OBJ := $(WASM_CORE_OBJ) $(BUILD)/wasm/bridge_alloc.o $(BUILD)/wasm/bridge_memory.o

.PHONY: all wasm cjson deps test test-native test-valgrind test-js demo demo-cli bench clean fuzz fuzz-smoke fuzz-long unicode-tables

all: wasm

cjson: $(CJSON_DIR)/cJSON.c
$(CJSON_DIR)/cJSON.c:
	scripts/fetch-cjson.sh $(CJSON_DIR)

wasm: wasm/midfold.wasm wasm/midfold-lite.wasm wasm/midfold-estimate.wasm wasm/midfold-memory.wasm
# After emcc's own wasm-opt -Oz, one more pass to a fixed point (binaryen's wasm-opt, which
# emcc itself runs) saves another 0.3 KB gzipped at no measured cost in speed; the modules use
# MVP instructions, SIMD and bulk memory only, and wasm-opt may add no others. Bulk memory
# makes memset and memcpy single instructions (memory.fill, memory.copy): without it they are
# byte loops, and zeroing a text's 54 feature counts cost more than pricing it. Every engine
# with SIMD has it (SIMD: Chrome 91, Firefox 89, Safari 16.4; bulk memory: Chrome 75,
# Firefox 78, Safari 15.1; web-platform-dx.github.io/web-features-explorer).
WASM_OPT ?= wasm-opt
WASM_OPT_FLAGS := --mvp-features --enable-simd --enable-bulk-memory -Oz --converge
wasm/midfold.wasm: $(WASM_OBJ) js/core/tiers.js
	$(EMCC) $(WASM_LDFLAGS) -sEXPORTED_FUNCTIONS=$(call export_list,$(WASM_EXPORTS)) $(WASM_OBJ) -o $@
	$(WASM_OPT) $(WASM_OPT_FLAGS) $@ -o $@
wasm/midfold-lite.wasm: $(WASM_LITE_OBJ) js/core/tiers.js
	$(EMCC) $(WASM_LDFLAGS) -sEXPORTED_FUNCTIONS=$(call export_list,$(WASM_LITE_EXPORTS)) $(WASM_LITE_OBJ) -o $@
	$(WASM_OPT) $(WASM_OPT_FLAGS) $@ -o $@
wasm/midfold-estimate.wasm: $(WASM_ESTIMATE_OBJ) js/core/tiers.js
	$(EMCC) $(WASM_LDFLAGS) -sEXPORTED_FUNCTIONS=$(call export_list,$(WASM_ESTIMATE_EXPORTS)) $(WASM_ESTIMATE_OBJ) -o $@
	$(WASM_OPT) $(WASM_OPT_FLAGS) $@ -o $@
wasm/midfold-memory.wasm: $(WASM_MEMORY_OBJ) js/core/tiers.js
	$(EMCC) $(WASM_LDFLAGS) -sEXPORTED_FUNCTIONS=$(call export_list,$(WASM_MEMORY_EXPORTS)) $(WASM_MEMORY_OBJ) -o $@
	$(WASM_OPT) $(WASM_OPT_FLAGS) $@ -o $@

$(BUILD)/wasm/%.o: src/%.c $(HDR) | $(CJSON_DIR)/cJSON.c
	@command -v $(EMCC) >/dev/null || { echo "emcc missing: run scripts/install-deps.sh as root"; exit 1; }
	@mkdir -p $(dir $@)
	$(EMCC) $(if $(filter $*,$(WASM_HOT)),-O3,$(if $(filter $*,$(WASM_SMALL_HOT)),-Os,-Oz)) $(WASM_CFLAGS) -c $< -o $@
$(BUILD)/wasm/bridge.o $(BUILD)/wasm/bridge_compact.o $(BUILD)/wasm/bridge_full.o $(BUILD)/wasm/bridge_search.o $(BUILD)/wasm/bridge_alloc.o $(BUILD)/wasm/bridge_memory.o: $(BUILD)/wasm/%.o: wasm/%.c wasm/bridge_common.h $(HDR) | $(CJSON_DIR)/cJSON.c
	@mkdir -p $(dir $@)
	$(EMCC) -Oz $(WASM_CFLAGS) -c $< -o $@
$(BUILD)/wasm/cJSON.o: $(CJSON_DIR)/cJSON.c
	@mkdir -p $(dir $@)
	$(EMCC) -Oz $(WASM_CFLAGS) $(CJSON_FLAGS) -c $< -o $@

# Native tests: the same sources and the same cJSON build settings, sanitized.
$(BUILD)/test_native: $(SRC) $(HDR) $(wildcard tests/native/*.c tests/native/*.h) $(BUILD)/native/cJSON.o
	$(CC_NATIVE) $(CWARN) $(SAN) -g -O1 -Isrc -I$(CJSON_DIR) -Itests/native \
	  $(SRC) $(wildcard tests/native/*.c) $(BUILD)/native/cJSON.o -o $@ -lm
# The same tests without sanitizers, under valgrind memcheck (valgrind 3.19 cannot read
# clang 14's default DWARF 5, hence -gdwarf-4).
$(BUILD)/test_native_vg: $(SRC) $(HDR) $(wildcard tests/native/*.c tests/native/*.h) $(CJSON_DIR)/cJSON.c
	@mkdir -p $(BUILD)
	$(CC_NATIVE) $(CWARN) -gdwarf-4 -O1 $(CJSON_FLAGS) -Isrc -I$(CJSON_DIR) -Itests/native \
	  $(SRC) $(wildcard tests/native/*.c) $(CJSON_DIR)/cJSON.c -o $@ -lm
test-valgrind: $(BUILD)/test_native_vg
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect $(BUILD)/test_native_vg

$(BUILD)/native/cJSON.o: $(CJSON_DIR)/cJSON.c
	@mkdir -p $(dir $@)
	$(CC_NATIVE) -std=c11 $(SAN) -g -O1 $(CJSON_FLAGS) -c $< -o $@

deps:
	scripts/install-deps.sh

test-native: $(BUILD)/test_native
	$(BUILD)/test_native

# libFuzzer targets (tests/fuzz/README.md), built in build/fuzz/. All three replay
# tests/fuzz/regressions/ first, print executions and coverage per target and fail on
# any finding. `make fuzz-smoke` (in `make test`) runs a pinned seed and input count per
# target (about 10 s each), so it fails only on a bug every machine reproduces;
# `make fuzz` explores for FUZZ_SECONDS per target; `make fuzz-long` runs the campaigns,
# FUZZ_LONG_SECONDS per target per run at nice 19, until each target has
# FUZZ_LONG_GOAL executions in its ledger (tests/fuzz/ledger/), keeping its corpus in
# fuzz-corpus/ (ignored by git, kept by `make clean`).
FUZZ_SECONDS ?= 60
FUZZ_LONG_SECONDS ?= 3600
FUZZ_LONG_GOAL ?= 10000000
fuzz fuzz-smoke fuzz-long: $(CJSON_DIR)/cJSON.c
	$(MAKE) -f tests/fuzz/fuzz.mk CJSON_FLAGS='$(CJSON_FLAGS)' all
	$(if $(filter fuzz-long,$@),FUZZ_LONG_SECONDS=$(FUZZ_LONG_SECONDS) FUZZ_LONG_GOAL=$(FUZZ_LONG_GOAL) tests/fuzz/long.sh,tests/fuzz/run.sh $(if $(filter fuzz-smoke,$@),smoke,$(FUZZ_SECONDS)))

# The node --test suites run on a supported Node (22, 24 and 26 are; 20 is end-of-life):
# NODE_VERSION from the npm registry's node-linux-<arch> package, installed once into
# build/ (kept while present; a new pin installs beside it). `make test-js NODE=node` runs
# them on the machine's own node instead. `:=`, not `?=`: npm's run-scripts export NODE
# (the node that runs npm), which must not replace the pin.
NODE_VERSION := 24.22.3
NODE_ARCH := $(if $(filter aarch64 arm64,$(shell uname -m)),arm64,x64)
NODE_PINNED := $(BUILD)/node-$(NODE_VERSION)/node_modules/node-linux-$(NODE_ARCH)/bin/node
NODE := $(NODE_PINNED)

$(NODE_PINNED):
	scripts/install-node.sh $(NODE_VERSION) $(BUILD)/node-$(NODE_VERSION)

test-js: wasm/midfold.wasm wasm/midfold-lite.wasm wasm/midfold-estimate.wasm wasm/midfold-memory.wasm $(filter $(NODE_PINNED),$(NODE))
	@echo "test-js: node --test on $(NODE) ($$($(NODE) --version))"
	$(NODE) --test 'tests/**/*.test.mjs'

# deps first (it installs what is missing), then everything else.
test: deps
	$(MAKE) test-native test-valgrind fuzz-smoke test-js

# The demo, the CLI demo and the benchmarks run on the same pinned Node as the tests (a
# distribution's nodejs may be 18 or 20, both past their end of life; midfold needs 22+).
# The demo page on http://127.0.0.1:$(DEMO_PORT)/web-demo/ (Ctrl-C stops it; DEMO_PORT=0 picks a free port).
DEMO_PORT ?= 8765
demo: deps
	$(MAKE) wasm $(filter $(NODE_PINNED),$(NODE))
	$(NODE) scripts/serve.mjs --port $(DEMO_PORT)

# The same compaction in the terminal, with the CLI.
demo-cli: deps
	$(MAKE) wasm $(filter $(NODE_PINNED),$(NODE))
	$(NODE) js/cli.js compact web-demo/samples/coding-session.anthropic.json --force --keep-tail 2000

# src/unicode_tables.c (committed) from the Unicode data of the pinned Node, by
# tools/unicode-tables.mjs; tests/core/unicode-tables.test.mjs fails when the file is not what it writes.
unicode-tables: $(filter $(NODE_PINNED),$(NODE))
	$(NODE) tools/unicode-tables.mjs

bench: deps
	$(MAKE) wasm $(filter $(NODE_PINNED),$(NODE))
	$(NODE) tests/bench/bench.mjs
	$(NODE) --expose-gc tests/bench/first-call.mjs
	$(NODE) tests/bench/state-check.mjs
	$(NODE) tests/bench/simulate.mjs
	$(NODE) tests/bench/digest.mjs
	$(NODE) tests/bench/accuracy.mjs
	$(NODE) tests/bench/memory.mjs
	$(NODE) tests/bench/recall.mjs

clean:
	rm -rf $(BUILD) wasm/midfold.wasm wasm/midfold-lite.wasm wasm/midfold-estimate.wasm wasm/midfold-memory.wasm
