# smfplay: `make demo` and `make test` work on a fresh Debian 12 machine with the Swift toolchain.
SWIFT ?= swift
DEBIAN_PACKAGES := libfluidsynth-dev libsndfile1-dev libebur128-dev libpulse-dev pulseaudio pulseaudio-utils \
	timgm6mb-soundfont fluid-soundfont-gm fluidsynth midicsv openttd-openmsx \
	desktop-file-utils man-db tmux libpng-dev python3 libsqlite3-dev sqlite3 \
	fluid-soundfont-gs timidity libsystemd-dev dbus-daemon dbus-bin playerctl sox slurm-wlm munge \
	libimage-exiftool-perl libtagc0-dev ffmpeg libarchive-dev libarchive-tools liblhasa-dev lhasa \
	shared-mime-info libglib2.0-bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_LIBRARY := Examples/Library
DEMO_RENDERS := out/demo

.PHONY: deps build test fuzz demo bench demo-library clean release install uninstall format lint deb deb-deps deb-path

# Installs only the Debian packages of the list given that are missing.
define install-missing
	@missing=$$(for package in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$package 2>/dev/null | grep -q '^install ok installed$$' || echo $$package; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install-missing,$(DEBIAN_PACKAGES))

build: deps
	$(SWIFT) build

# Suites that listen to a real PulseAudio server measure time: they run one at a
# time, after the others, so that no other test competes with them for the CPU.
# RealTimeSplitTests and KeySequenceTimingTests are paced by the wall clock too.
# RenderAllocationTests counts the allocator's calls on every audio thread of the
# process: alone, it sees only its own.
REALTIME_SUITES := PulseAudioSinkTests|RenderAllocationTests|RealTimeSplitTests|KeySequenceTimingTests|PlayCommandTests|PipePlayCommandTests|BrowseCommandTests|ResumeCommandTests|KeyboardCommandTests|PlayViewCommandTests|MediaKeysCommandTests|SoundBankPlayCommandTests|EmbeddedBankPlayCommandTests|PlaybackLoudnessCommandTests|ReconnectCommandTests|VanishingFilesCommandTests|FullDiskCommandTests

# The code's layout is swift-format's, configured in .swift-format: `make format` rewrites it,
# `make lint` (the first step of `make test`) fails on any difference. ReplaceForEachWithForLoop
# is off: a one-line `forEach` reads as well as a loop.
FORMATTED := Sources Tests Package.swift

format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMATTED)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

# generate-manual is built for InstallTests, which install the debug build (see "Installing").
# Last, three minutes of bench/soak.sh's fast variant (a song change every 2-3 s, smfplay
# alone): memory, descriptors and threads must not grow. Sampled every 2 s: after the 2-minute
# warm-up each third is 20 s, which every 10 s held two samples, and one that caught a song's
# file open for a moment made the median of two grow (23 -> 23.5 descriptors).
test: deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) build --product generate-manual
	$(SWIFT) test --skip-build --skip '$(REALTIME_SUITES)'
	$(SWIFT) test --skip-build --no-parallel --filter '$(REALTIME_SUITES)'
	SOAK_FAST=1 SOAK_MINUTES=3 SOAK_SAMPLE_SECONDS=2 SOAK_PEER=0 BENCH_BIN_DIR=.build/debug BENCH_OUT=.build/soak bench/soak.sh

# Fuzzing (README, "Fuzzing"): each target of Sources/Fuzzing is an executable built with libFuzzer
# and AddressSanitizer in a build folder of its own, then run for FUZZ_SECONDS on a copy of its
# committed seeds, so that what it adds stays out of Tests/Fuzz (linked by lld: gold warns about
# every AddressSanitizer symbol). An input that crashes a target or breaks its promise is left in
# $(FUZZ_RUNS)/TARGET/ (crash-*), and make fails once every target has run. FUZZ_FLAGS adds libFuzzer options (-max_len=..., -dict=...). TOMLKit 0.6.0 leaks
# a few allocations of its C++ side with every document it parses (the table, the error, strings
# and key lists it hands over): not smfplay's leaks, so the configuration target runs without
# LeakSanitizer (which would otherwise report them when the run ends, and fail it). The others run
# with Tests/Fuzz/leaks.supp (global constants, made once, which LeakSanitizer cannot always follow).
FUZZ_TARGETS ?= smf-reader smf-parallel-tracks smf-writer rmid configuration lists sound-module mpris
FUZZ_SECONDS ?= 60
FUZZ_SCRATCH ?= .build-fuzzer
FUZZ_RUNS ?= $(FUZZ_SCRATCH)/runs
FUZZ_FLAGS ?=

fuzz: deps
	@for target in $(FUZZ_TARGETS); do \
		$(SWIFT) build --scratch-path $(FUZZ_SCRATCH) --product fuzz-$$target \
			-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld || exit 1; \
	done
	@failed=""; for target in $(FUZZ_TARGETS); do \
		run=$(FUZZ_RUNS)/$$target; rm -rf $$run; mkdir -p $$run/corpus; cp Tests/Fuzz/Corpus/$$target/* $$run/corpus/; \
		echo "fuzz-$$target: $(FUZZ_SECONDS) s"; \
		case $$target in configuration) leaks="env ASAN_OPTIONS=detect_leaks=0";; *) leaks="env LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Fuzz/leaks.supp";; esac; \
		if $$leaks $(FUZZ_SCRATCH)/debug/fuzz-$$target $$run/corpus -max_total_time=$(FUZZ_SECONDS) -timeout=10 -print_final_stats=1 \
			-artifact_prefix=$$run/ $(FUZZ_FLAGS) >$$run/log 2>&1; then \
			grep -E "DONE|^Done|stat::(number_of_executed_units|peak_rss_mb)" $$run/log; \
		else \
			tail -n 40 $$run/log; failed="$$failed $$target"; \
		fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzzing found failures in:$$failed (inputs in $(FUZZ_RUNS)/TARGET/)"; exit 1; fi

# Shows the demo library, then renders it to $(DEMO_RENDERS) (files already rendered are skipped).
demo: build
	.build/debug/smfplay info $(DEMO_LIBRARY)
	.build/debug/smfplay render $(DEMO_LIBRARY) -o $(DEMO_RENDERS)

# Regenerates the demo library's MIDI files from code (they are committed).
demo-library:
	$(SWIFT) run smfplay-demo-library $(DEMO_LIBRARY)

# Every benchmark, one after another (about two hours on 2 cores, one of them the soak); BENCHMARKS.md has what each
# measures and its latest results. Each script also runs alone.
bench: deps
	bench/parse.sh
	bench/info.sh
	bench/render.sh
	bench/one-song.sh
	bench/embedded-banks.sh
	bench/loudness.sh
	bench/thumbnail.sh
	bench/play.sh
	bench/playback.sh
	bench/library.sh
	bench/archives.sh
	bench/start.sh
	bench/compat.sh
	bench/limiter.sh
	bench/shards.sh
	bench/soak.sh

clean:
	rm -rf .build $(RELEASE_SCRATCH) $(DIST)

# Installing: `make release` builds, `make install` copies (PREFIX, default /usr/local;
# DESTDIR, a root to stage a package in), `make uninstall` removes what install copied.
# Nothing is rebuilt when it is newer than the sources, so `sudo make install` after
# `make release` builds nothing as root.
#
# SMFPLAY is the binary installed and documented; InstallTests pass the debug build made
# by `make test` (and its generate-manual and a GENERATED folder of their own), which
# spares CI a second full build of everything in release mode.
#
# The release build has a folder of its own: a plain `swift build -c release` (or a
# benchmark's) in .build links the Swift runtime dynamically, and a binary of that kind,
# newer than the sources, would be installed as it is and fail where /opt/swift is not
# (a file manager's thumbnailer sandbox shows only /usr).
PREFIX ?= /usr/local
DESTDIR ?=
SCRATCH ?= .build
RELEASE_SCRATCH ?= .build-release
SMFPLAY ?= $(RELEASE_SCRATCH)/release/smfplay
GENERATE_MANUAL ?= $(SCRATCH)/debug/generate-manual
# The man pages and shell completions made from $(SMFPLAY).
GENERATED ?= $(RELEASE_SCRATCH)/generated
SOURCES := Package.swift $(wildcard Package.resolved) $(shell find Sources -type f)
BIN_DIR = $(DESTDIR)$(PREFIX)/bin
SHARE_DIR = $(DESTDIR)$(PREFIX)/share
MAN1_DIR = $(SHARE_DIR)/man/man1
# Under share/: where zsh looks under /usr/local (a package puts it where Debian's zsh looks).
ZSH_COMPLETIONS ?= zsh/site-functions
INSTALLED_FILES = $(BIN_DIR)/smfplay \
	$(SHARE_DIR)/bash-completion/completions/smfplay \
	$(SHARE_DIR)/$(ZSH_COMPLETIONS)/_smfplay \
	$(SHARE_DIR)/fish/vendor_completions.d/smfplay.fish \
	$(SHARE_DIR)/applications/smfplay.desktop \
	$(SHARE_DIR)/thumbnailers/smfplay.thumbnailer \
	$(SHARE_DIR)/mime/packages/smfplay-mime.xml

# The binary, its man pages and completions. The Swift runtime is linked in, so the binary
# runs without the toolchain.
release: deps $(RELEASE_SCRATCH)/release/smfplay $(GENERATED)/stamp

$(RELEASE_SCRATCH)/release/smfplay: $(SOURCES)
	$(SWIFT) build --scratch-path $(RELEASE_SCRATCH) -c release --static-swift-stdlib --product smfplay

# A tool of swift-argument-parser's, from the checkout SwiftPM resolved. Its plugin
# (`swift package plugin generate-manual`) is not used: it rebuilds every product in
# release mode without --static-swift-stdlib, over the binary to install.
$(SCRATCH)/debug/generate-manual: $(wildcard Package.resolved)
	$(SWIFT) build --scratch-path $(SCRATCH) --product generate-manual

# One man page for smfplay and one for each subcommand (smfplay.render.1...), each named in
# a way mandb can index (scripts/whatis-names.sh). bash sources its completion: no #! line.
$(GENERATED)/stamp: $(SMFPLAY) $(GENERATE_MANUAL) scripts/ascii-help.sh scripts/man-glyphs.pl scripts/whatis-names.sh scripts/implicit-play.bash
	mkdir -p $(GENERATED)/man1
	rm -f $(GENERATED)/man1/*.1
	SMFPLAY=$(abspath $(SMFPLAY)) $(GENERATE_MANUAL) scripts/ascii-help.sh --multi-page --output-directory $(GENERATED)/man1
	scripts/man-glyphs.pl $(GENERATED)/man1/*.1
	scripts/whatis-names.sh $(GENERATED)/man1/*.1
	$(SMFPLAY) --generate-completion-script bash > $(GENERATED)/smfplay.bash
	sed -i '1{/^#!/d}' $(GENERATED)/smfplay.bash
	cat scripts/implicit-play.bash >> $(GENERATED)/smfplay.bash
	$(SMFPLAY) --generate-completion-script zsh > $(GENERATED)/_smfplay
	$(SMFPLAY) --generate-completion-script fish > $(GENERATED)/smfplay.fish
	touch $@

install: $(SMFPLAY) $(GENERATED)/stamp
	install -D -m 755 $(SMFPLAY) $(BIN_DIR)/smfplay
	install -d $(MAN1_DIR)
	install -m 644 $(GENERATED)/man1/*.1 $(MAN1_DIR)
	install -D -m 644 $(GENERATED)/smfplay.bash $(SHARE_DIR)/bash-completion/completions/smfplay
	install -D -m 644 $(GENERATED)/_smfplay $(SHARE_DIR)/$(ZSH_COMPLETIONS)/_smfplay
	install -D -m 644 $(GENERATED)/smfplay.fish $(SHARE_DIR)/fish/vendor_completions.d/smfplay.fish
	install -D -m 644 Config/smfplay.desktop $(SHARE_DIR)/applications/smfplay.desktop
	install -D -m 644 Config/smfplay.thumbnailer $(SHARE_DIR)/thumbnailers/smfplay.thumbnailer
	install -D -m 644 Config/smfplay-mime.xml $(SHARE_DIR)/mime/packages/smfplay-mime.xml
	$(update-databases)

# The man pages are every smfplay.*.1, so that a subcommand removed since install goes too.
uninstall:
	rm -f $(INSTALLED_FILES) $(MAN1_DIR)/smfplay.1 $(MAN1_DIR)/smfplay.*.1
	$(update-databases)

# Tells the desktop about the MIME type and the "Open with" entry; a package's own scripts
# do it instead (DESTDIR).
define update-databases
	@if [ -z "$(DESTDIR)" ]; then \
		if command -v update-mime-database >/dev/null && [ -d $(PREFIX)/share/mime ]; then update-mime-database $(PREFIX)/share/mime; fi; \
		if command -v update-desktop-database >/dev/null && [ -d $(PREFIX)/share/applications ]; then update-desktop-database -q $(PREFIX)/share/applications; fi; \
	fi
endef

# The Debian package (README, "Install"): `make deb` writes $(DEB), the release build staged by
# `make install DESTDIR=... PREFIX=/usr` (the same files, zsh's completion where Debian's zsh
# looks), the binary stripped, the man pages compressed, debian/copyright and debian/changelog
# in /usr/share/doc/smfplay. Its version is smfplay's own (SMFPlay.version, what --version
# prints), and debian/changelog must have an entry for it. Depends is dpkg-shlibdeps' reading of
# what the binary links, plus the libraries opened with dlopen, which it cannot see: those are
# named on debian/control's Depends line, and scripts/dlopen-depends.sh fails when the binary
# names a library it does not link whose package is not there. lintian must report no error and
# no warning, else no package is left in $(DIST). DEB_PACKAGES are what this needs besides deps'.
DEB_PACKAGES := dpkg-dev lintian
DIST ?= dist
VERSION := $(shell sed -n 's/^ *static let version = "\(.*\)"$$/\1/p' Sources/smfplay/SMFPlay.swift)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
DEB := $(DIST)/smfplay_$(VERSION)_$(DEB_ARCH).deb
DEB_WORK := $(RELEASE_SCRATCH)/deb
DEB_ROOT := $(DEB_WORK)/root

deb-deps: deps
	$(call install-missing,$(DEB_PACKAGES))

deb: deb-deps release
	@test -n "$(VERSION)" || { echo "no version found in Sources/smfplay/SMFPlay.swift"; exit 1; }
	@test "$$($(SMFPLAY) --version)" = "$(VERSION)" || { echo "$(SMFPLAY) --version is not $(VERSION)"; exit 1; }
	@test "$$(dpkg-parsechangelog -l debian/changelog -SVersion)" = "$(VERSION)" || \
		{ echo "debian/changelog's first entry is not $(VERSION): add one for it"; exit 1; }
	rm -rf $(DEB_WORK)
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(DEB_ROOT)) PREFIX=/usr ZSH_COMPLETIONS=zsh/vendor-completions
	strip --remove-section=.comment --remove-section=.note --strip-unneeded $(DEB_ROOT)/usr/bin/smfplay
	gzip -9n $(DEB_ROOT)/usr/share/man/man1/*.1
	install -D -m 644 debian/copyright $(DEB_ROOT)/usr/share/doc/smfplay/copyright
	gzip -9nc debian/changelog > $(DEB_ROOT)/usr/share/doc/smfplay/changelog.gz
	find $(DEB_ROOT) -type d -exec chmod 755 {} +
	find $(DEB_ROOT)/usr/share -type f -exec chmod 644 {} +
	mkdir -p $(DEB_ROOT)/DEBIAN
	cd $(DEB_ROOT) && find usr -type f | LC_ALL=C sort | xargs -d '\n' md5sum > DEBIAN/md5sums
	dpkg-shlibdeps -T$(DEB_WORK)/substvars -e$(DEB_ROOT)/usr/bin/smfplay
	dpkg-gencontrol -psmfplay -v$(VERSION) -cdebian/control -ldebian/changelog -T$(DEB_WORK)/substvars \
		-f$(DEB_WORK)/files -P$(DEB_ROOT)
	chmod 644 $(DEB_ROOT)/DEBIAN/control $(DEB_ROOT)/DEBIAN/md5sums
	scripts/dlopen-depends.sh $(DEB_ROOT)/usr/bin/smfplay $(DEB_ROOT)/DEBIAN/control
	dpkg-deb --root-owner-group --build $(DEB_ROOT) $(DEB_WORK)/smfplay.deb
	lintian --fail-on error,warning $(DEB_WORK)/smfplay.deb
	mkdir -p $(DIST)
	mv $(DEB_WORK)/smfplay.deb $(DEB)
	@echo "$(DEB): sudo apt install ./$(DEB)"

# Where `make deb` writes the package (.ci/package-test asks).
deb-path:
	@echo $(DEB)
