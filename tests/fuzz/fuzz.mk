# fuzz.mk — builds the libFuzzer targets, the seed generator and the seed corpora.
# Called from the top Makefile (make fuzz / make fuzz-smoke), from the repository root:
#   $(MAKE) -f tests/fuzz/fuzz.mk CJSON_FLAGS='...' all
# Everything goes to build/fuzz/; the library and cJSON are compiled once, instrumented.

CC_FUZZ ?= clang
CJSON_DIR ?= third_party/cjson
CJSON_FLAGS ?= -Dstrtod=mf_strtod -DCJSON_NESTING_LIMIT=1000
OUT := build/fuzz
TARGETS := json tree serialize micro compact validate text memory search

INSTR := -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LINK := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
CWARN := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
INC := -Isrc -I$(CJSON_DIR) -Itests/fuzz

# FUZZ_SKIP: sources to leave out (e.g. a file another change has not finished).
FUZZ_SKIP ?=
LIB_SRC := $(filter-out $(FUZZ_SKIP),$(wildcard src/*.c))
LIB_OBJ := $(patsubst src/%.c,$(OUT)/obj/%.o,$(LIB_SRC)) $(OUT)/obj/cJSON.o $(OUT)/obj/common.o
HDR := $(wildcard src/*.h) tests/fuzz/common.h
# Conversations: every fixture named NAME.FORMAT.json in tests/fixtures/ or one folder
# below (a new format's fixtures are picked up by their name), and the hand-written seeds.
FORMAT_NAMES := anthropic openai ai-sdk openai-responses ai-sdk-ui
FIXTURES := $(sort $(foreach f,$(FORMAT_NAMES),$(wildcard tests/fixtures/*.$(f).json tests/fixtures/*/*.$(f).json)) \
  $(wildcard tests/fuzz/seeds/*.json))
MEMORY_SEEDS := $(wildcard tests/fuzz/seeds/memory/*.json)
# The search's seeds are written by hand (tests/fuzz/seeds/search/, README.md has the layout).
SEARCH_SEEDS := $(wildcard tests/fuzz/seeds/search/*)
HOSTILE_PATHS := tests/fixtures/memory/hostile-paths.json

.PHONY: all
# Keep the instrumented objects between runs (they are intermediates of the pattern rules).
.SECONDARY:
all: $(addprefix $(OUT)/fuzz_,$(TARGETS)) $(OUT)/seeds/.stamp $(OUT)/doc.dict

$(OUT)/obj/%.o: src/%.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC_FUZZ) $(CWARN) $(INSTR) $(INC) -c $< -o $@
$(OUT)/obj/common.o: tests/fuzz/common.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC_FUZZ) $(CWARN) $(INSTR) $(INC) -c $< -o $@
$(OUT)/obj/cJSON.o: $(CJSON_DIR)/cJSON.c
	@mkdir -p $(dir $@)
	$(CC_FUZZ) -std=c11 $(INSTR) $(CJSON_FLAGS) -c $< -o $@

$(OUT)/fuzz_%: tests/fuzz/fuzz_%.c $(LIB_OBJ) $(HDR)
	$(CC_FUZZ) $(CWARN) $(INSTR) $(LINK) $(INC) $< $(LIB_OBJ) -o $@ -lm

# The seed generator links the library without the fuzzer runtime (it has a main).
$(OUT)/seedgen: tests/fuzz/seedgen.c $(LIB_SRC) tests/fuzz/common.c $(HDR) $(CJSON_DIR)/cJSON.c
	@mkdir -p $(OUT)
	$(CC_FUZZ) -std=c11 -g -O1 $(INC) $(CJSON_FLAGS) tests/fuzz/seedgen.c tests/fuzz/common.c $(LIB_SRC) \
	  $(CJSON_DIR)/cJSON.c -o $@ -lm

$(OUT)/seeds/.stamp: $(OUT)/seedgen $(FIXTURES) $(MEMORY_SEEDS) $(SEARCH_SEEDS) $(wildcard $(HOSTILE_PATHS))
	rm -rf $(OUT)/seeds
	$(OUT)/seedgen $(OUT)/seeds $(FIXTURES)
	mkdir -p $(OUT)/seeds/memory
	$(if $(MEMORY_SEEDS),cp $(MEMORY_SEEDS) $(OUT)/seeds/memory/)
	$(if $(wildcard $(HOSTILE_PATHS)),$(OUT)/seedgen --memory $(OUT)/seeds $(HOSTILE_PATHS))
	mkdir -p $(OUT)/seeds/search
	$(if $(SEARCH_SEEDS),cp $(SEARCH_SEEDS) $(OUT)/seeds/search/)
	@touch $@

$(OUT)/doc.dict: tests/fuzz/json.dict tests/fuzz/tree.dict
	cat $^ > $@
