# bouton -- the top-level commands.  CMake does the building.
#
#   make            build into build/ (build/bouton, build/libbouton.a/.so)
#   make test       build and run every test, then the whole suite again
#                   under ASan+UBSan (build-asan/), then the valgrind run
#   make run        build the program (quietly) and start the server
#   make bench      build the benchmarks and run them
#   make install    install into PREFIX (default /usr/local; DESTDIR is
#                   honoured): the program, libbouton.a/.so, the headers,
#                   bouton.pc, the CMake package, the man page, completion
#
# Missing Debian packages are installed by scripts/deps.sh (as root), or it
# prints the apt-get command to run.

BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
PREFIX ?= /usr/local

.PHONY: all deps test-deps browser-deps build test test-quick test-asan test-valgrind \
        test-browser run bench install clean

all: build

deps:
	@sh scripts/deps.sh build

test-deps:
	@sh scripts/deps.sh test

browser-deps:
	@sh scripts/deps.sh browser

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@MAKEFLAGS=--no-print-directory cmake --build $(BUILD) -j $(JOBS)

# The stages run one after another whatever each gives, so that a failure
# in one (a slow test on a busy machine) does not hide the others; the
# stages that failed are named at the end, and make fails then.
test: browser-deps
	@$(MAKE) --no-print-directory build
	@failed=""; \
	(cd $(BUILD) && ctest --no-tests=error --output-on-failure -j $(JOBS)) \
	  || failed="$$failed ctest"; \
	$(MAKE) --no-print-directory test-asan || failed="$$failed test-asan"; \
	$(MAKE) --no-print-directory test-valgrind || failed="$$failed test-valgrind"; \
	sh scripts/test-extra.sh $(BUILD) || failed="$$failed test-extra"; \
	if [ -n "$$failed" ]; then echo "make test: failed stages:$$failed"; exit 1; fi; \
	echo "make test: every stage passed"

# The quick tests only, in the normal build.
test-quick: test-deps
	@$(MAKE) --no-print-directory build
	cd $(BUILD) && ctest --no-tests=error --output-on-failure -L quick -j $(JOBS)

# The suite under AddressSanitizer and UndefinedBehaviorSanitizer: every
# quick test, and the slow ones labelled sanitize (those that reach code
# no quick test does), light (tests/CMakeLists.txt).  The other slow tests
# add no line of src/ to the quick ones' (gcov; tests/README.md): they run
# in the normal build only.
test-asan: test-deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DBOUTON_SANITIZE=ON >/dev/null
	@MAKEFLAGS=--no-print-directory cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --no-tests=error --output-on-failure -L 'quick|sanitize' -j $(JOBS)

# The quick unit tests under valgrind (the normal build, DWARF 4).
test-valgrind: test-deps
	@$(MAKE) --no-print-directory build
	@sh scripts/valgrind.sh $(BUILD)

# Only the program, and its build's lines only when it fails: the first
# line `make run` prints is the server's address.
run: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@log=$$(mktemp) && \
	if MAKEFLAGS=--no-print-directory cmake --build $(BUILD) -j $(JOBS) \
	     --target bouton >"$$log" 2>&1; then rm -f "$$log"; \
	else cat "$$log"; rm -f "$$log"; exit 1; fi
	@./$(BUILD)/bouton serve

install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(abspath $(PREFIX))"

bench: build
	@sh scripts/deps.sh bench
	@sh bench/run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
