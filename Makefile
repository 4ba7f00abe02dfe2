# memesh — see README.md. `make run` starts memesh; `make test` runs every test.
SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
BINARY := .build/release/memesh

# Debian packages the build, the tests and the fonts need (`make deps` installs the missing ones).
DEB_PACKAGES := pkg-config libedit-dev libpng-dev libjpeg62-turbo-dev libfreetype-dev \
  libharfbuzz-dev libchafa-dev libglib2.0-dev libfontconfig-dev libdeflate-dev \
  fontconfig fonts-dejavu-core fonts-noto-cjk fonts-noto-color-emoji fonts-lohit-deva \
  tmux strace python3 patchelf
# Line breaking (UAX #14, Thai words), bidi, and the Thai font the caption goldens draw with.
DEB_PACKAGES += libunibreak-dev libthai-dev libfribidi-dev fonts-thai-tlwg
# The default pager for long output in a terminal (PagerTests).
DEB_PACKAGES += less
# WebP and GIF (the codec layer's libwebp and giflib adapters).
DEB_PACKAGES += libwebp-dev libgif-dev
# groff reads the manual page in the tests (ManualPageTests).
DEB_PACKAGES += groff-base
# HEIC/AVIF through libheif (libde265 and libaom decode); heif-enc makes the bench's HEIC input.
DEB_PACKAGES += libheif-dev libheif-examples
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build debug run test unit-test transcripts hostile faults faults-quick bench bench-quick install uninstall clean \
  fuzz test-sanitize

all: build

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# Release builds link the Swift runtime and Foundation statically: `memesh -c quit` then starts
# in about 6 ms instead of 10 (dynamic Foundation costs ~4 ms of loading; `make bench` measures).
RELEASE_FLAGS := -c release --static-swift-stdlib

# The libraries most commands never need (text, terminal pictures, WebP/GIF/HEIF) are opened on
# first use (MemeMedia/SharedLibrary.swift); scripts/lazy-libraries takes them off the list the
# dynamic loader reads at every start.
build: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product memesh
	@scripts/lazy-libraries $(BINARY)

debug: deps
	$(SWIFT) build

run: build
	$(BINARY)

# Every unit test, then every transcript against the release binary.
test: build unit-test transcripts hostile faults-quick
	@scripts/lazy-libraries --check $(BINARY)

unit-test: deps
	$(SWIFT) test

transcripts: build
	@scripts/run-transcripts $(BINARY) transcripts

# Hostile bytes through pipes, -c and transcripts into the release binary (scripts/test-hostile);
# the store against backups, symlinks, reused homes, caches and two sessions
# (scripts/test-hostile-store).
hostile: build
	@scripts/test-hostile $(BINARY)
	@scripts/test-hostile-store $(BINARY)

# Failing writes, fsyncs, renames, locks, a read-only store and SIGKILL during share
# (scripts/fault-test, strace -e inject); the debug binaries come from `swift test`.
faults: deps
	$(SWIFT) build --product memesh-store-torture && $(SWIFT) build --product memesh
	@scripts/fault-test

faults-quick: unit-test
	@scripts/fault-test --quick

bench: build
	@RELEASE_FLAGS="$(RELEASE_FLAGS)" scripts/bench

# The 12-MP rows only, 3 runs: about a minute, for iterating on speed.
bench-quick: build
	@BENCH_QUICK=1 RELEASE_FLAGS="$(RELEASE_FLAGS)" scripts/bench

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/memesh/fonts
	install -m 755 $(BINARY) $(DESTDIR)$(PREFIX)/bin/memesh
	install -m 644 Fonts/*.ttf Fonts/*.txt $(DESTDIR)$(PREFIX)/share/memesh/fonts/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	$(BINARY) --generate-manual > $(DESTDIR)$(PREFIX)/share/man/man1/memesh.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	$(BINARY) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/memesh
	$(BINARY) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_memesh
	$(BINARY) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/memesh.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/memesh $(DESTDIR)$(PREFIX)/share/bash-completion/completions/memesh \
	  $(DESTDIR)$(PREFIX)/share/man/man1/memesh.1 \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_memesh \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/memesh.fish
	rm -rf $(DESTDIR)$(PREFIX)/share/memesh

# libFuzzer + ASan on every target, FUZZ_SECONDS (default 180) each, from Tests/Fuzz/corpus.
fuzz: deps
	@scripts/fuzz

# The unit tests under AddressSanitizer + UndefinedBehaviorSanitizer (C shim included), in
# .build-sanitize.
test-sanitize: deps
	@scripts/test-sanitize

clean:
	rm -rf .build .build-sanitize .build-fuzz
