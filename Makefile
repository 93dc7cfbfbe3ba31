# smfplay: `make demo` and `make test` work on a fresh Debian 12 machine with the Swift toolchain.
SWIFT ?= swift
DEBIAN_PACKAGES := libfluidsynth-dev libsndfile1-dev libpulse-dev pulseaudio pulseaudio-utils \
	timgm6mb-soundfont fluid-soundfont-gm fluidsynth midicsv openttd-openmsx libpng-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_LIBRARY := Examples/Library
DEMO_RENDERS := out/demo

.PHONY: deps build test demo bench demo-library clean

# Installs only the Debian packages that are missing.
deps:
	@missing=$$(for package in $(DEBIAN_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$package 2>/dev/null | grep -q '^install ok installed$$' || echo $$package; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build

# Suites that listen to a real PulseAudio server measure time: they run one at a
# time, after the others, so that no other test competes with them for the CPU.
REALTIME_SUITES := PulseAudioSinkTests|PlayCommandTests

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '$(REALTIME_SUITES)'
	$(SWIFT) test --skip-build --no-parallel --filter '$(REALTIME_SUITES)'

# Shows the demo library, then renders it to $(DEMO_RENDERS) (files already rendered are skipped).
demo: build
	.build/debug/smfplay info $(DEMO_LIBRARY)
	.build/debug/smfplay render $(DEMO_LIBRARY) -o $(DEMO_RENDERS)

# Regenerates the demo library's MIDI files from code (they are committed).
demo-library:
	$(SWIFT) run smfplay-demo-library $(DEMO_LIBRARY)

bench: deps
	bench/parse.sh

clean:
	rm -rf .build
