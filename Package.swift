// swift-tools-version:6.1
import PackageDescription

/// This file's folder: the linker runs in another.
let packageFolder = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "smfplay",
    products: [
        .executable(name: "smfplay", targets: ["smfplay"]),
        .library(name: "SMF", targets: ["SMF"]),
    ],
    dependencies: [
        // Exact versions: Package.resolved is not kept (these machines resolve packages from local
        // copies whose revisions are not upstream's), so two clean builds get the same code only so.
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
    ],
    // What each target owns, what it may import and which threads it runs: ARCHITECTURE.md
    // (Tests/ArchitectureTests holds the sources and this list to it).
    targets: [
        // C libraries, as Debian packages them.
        // Those LibraryLoader opens at their first use name no pkgConfig: its flags would link them (their
        // headers are in the default place).
        .systemLibrary(name: "CFluidSynth", providers: [.apt(["libfluidsynth-dev"])]),
        .systemLibrary(name: "CSndFile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CEBUR128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CPulseAudio", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CArchive", providers: [.apt(["libarchive-dev"])]),
        // liblhasa's decoders, for the LZH methods libarchive has none for (LHarc 1's -lh1-).
        .systemLibrary(name: "CLhasa", providers: [.apt(["liblhasa-dev"])]),
        .systemLibrary(name: "CSystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CTagLib", providers: [.apt(["libtagc0-dev"])]),
        // The few functions of TagLib 2's C API that smfplay needs and Debian 12's TagLib 1.13 lacks, in C++
        // against TagLib's own API (see its header); it goes when Debian has TagLib 2.
        .target(name: "CTagLibBackport", dependencies: ["CTagLib"]),

        // The C libraries above that only some commands need (libarchive, liblhasa, FluidSynth, libpulse, libsndfile,
        // libsystemd, libebur128, TagLib), opened at their first use rather than when smfplay starts: see its header.
        .target(name: "LibraryLoader", linkerSettings: [.linkedLibrary("dl")]),

        // Files as bytes (swift-system's FilePath, whatever a name's encoding), and the one way a
        // file is written whole or not at all; an archive's members read as files are (libarchive; liblhasa for -lh1-).
        .target(name: "Files", dependencies: ["CArchive", "CLhasa", "LibraryLoader", .product(name: "SystemPackage", package: "swift-system")]),
        // Work on several threads of smfplay's own (not libdispatch's concurrentPerform: see WorkerThreads).
        .target(name: "WorkerThreads"),
        // The Standard MIDI File reader and writer: pure Swift, no C dependencies.
        .target(name: "SMF", dependencies: ["Files", "WorkerThreads", .product(name: "SystemPackage", package: "swift-system")]),
        // The synthesizer (FluidSynth) and the sequencer that feeds it a song's events.
        .target(
            name: "Synthesis",
            dependencies: ["SMF", "Files", "WorkerThreads", "CFluidSynth", "LibraryLoader", .product(name: "SystemPackage", package: "swift-system")]),
        // Where audio goes: audio files (libsndfile, and TagLib for the tags libsndfile cannot write).
        .target(
            name: "AudioOutput",
            dependencies: [
                "Files", "CSndFile", "CTagLib", "CTagLibBackport", "CPulseAudio", "LibraryLoader",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // How loud audio is: EBU R128 loudness and true peak (libebur128).
        .target(name: "Loudness", dependencies: ["CEBUR128", "LibraryLoader", "WorkerThreads"]),
        // Rendering and playing songs: the synthesizer into a sink.
        .target(
            name: "Playback",
            dependencies: [
                "SMF", "Files", "Synthesis", "AudioOutput", "Loudness", "WorkerThreads", .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // The user's MIDI files: finding them in folders, in the order people expect.
        .target(name: "Library", dependencies: ["Files", "SMF", "WorkerThreads", .product(name: "SystemPackage", package: "swift-system")]),
        // The SQLite files smfplay keeps for itself (GRDB): opened, checked for being its own, a damaged one set aside.
        .target(
            name: "Storage",
            dependencies: ["Files", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "SystemPackage", package: "swift-system")]),
        // Where the player was, so that the next start goes on from there (a Storage file), recorded from what the player reports.
        .target(
            name: "Resume",
            dependencies: [
                "Files", "Library", "Storage", "Playback", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // The library index: every MIDI file's facts and words in SQLite (GRDB), and search over them.
        .target(
            name: "LibraryIndex",
            dependencies: [
                "SMF", "Files", "Library", "Storage", "WorkerThreads", "Loudness", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // Settings from the configuration file, and where files are looked for. The settings' types are the layers' that act on them.
        .target(
            name: "Configuration",
            dependencies: [
                "Files", "SMF", "Synthesis", "AudioOutput", "Loudness", .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]),
        // How much one rendering sounds like another (spectra, level, missing parts, clipping): for render tests and bench/compat.sh.
        .target(name: "SoundComparison"),
        // Songs that use a GS, XG or GM2 feature, each with the same music in plain GM: for render tests and bench/compat.sh.
        .target(name: "CompatibilitySongs", dependencies: ["SMF"]),
        // Piano-roll thumbnails of MIDI files, as PNG images (libpng).
        .target(name: "Thumbnails", dependencies: ["SMF", "Files", "CPNG", .product(name: "SystemPackage", package: "swift-system")]),
        // The desktop's media keys and players' widgets: an MPRIS 2.2 service on the D-Bus session bus (libsystemd's sd-bus),
        // and what its requests do to the player (MediaKeys).
        .target(
            name: "MediaPlayerService",
            dependencies: [
                "Files", "Library", "CSystemd", "LibraryLoader", "Playback", "SMF", "Thumbnails",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // What smfplay shows on a terminal and reads from it: raw mode and the alternate screen, keys, cells and colours,
        // display widths, the piano keyboard and roll, progress, the play and browser views, `info`'s report, messages on
        // standard error, Ctrl-C; and the loops of the play and browse sessions.
        .target(
            name: "TerminalUI",
            dependencies: [
                "Playback", "Synthesis", "SMF", "Library", "LibraryIndex", "Resume", "MediaPlayerService", "Thumbnails",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // A batch render's bookkeeping: which files go where (folders mirrored, a manifest, a cluster's shards), and what
        // became of each (the --json and --report lines, the summaries of a run and of a cluster's reports).
        .target(
            name: "RenderJobs",
            dependencies: [
                "Playback", "Library", "Files", "AudioOutput", "Configuration",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // The command line: its commands and options, and the wiring of the layers into sessions.
        .executableTarget(
            name: "smfplay",
            dependencies: [
                "SMF",
                "Files",
                "Library",
                "LibraryIndex",
                "Resume",
                "Configuration",
                "Synthesis",
                "Loudness",
                "AudioOutput",
                "Playback",
                "Thumbnails",
                "MediaPlayerService",
                "TerminalUI",
                "RenderJobs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["startup.order", "Link"],
            // Release builds link with the toolchain's lld and pack the relative relocations (DT_RELR,
            // glibc 2.36): the dynamic loader then starts smfplay about 1.5 ms sooner (bench/play.sh's
            // first sound; BENCHMARKS.md). gold, the default, cannot pack them. They export no symbols
            // (the toolchain's default exports every Swift symbol of the package's own code, 14,500,
            // which no one looks up) and place the code that starting touches together, in the order
            // of startup.order (scripts/startup-order.py): the kernel maps a program 64 KB around each
            // page it runs, so scattered, that code kept 6 MB of smfplay resident for `--version`.
            // And they link libstdc++ in (Link/libstdc++.so, a linker script found first for
            // -lstdc++): one library fewer to load at every start.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                        "-Xlinker", "--symbol-ordering-file=\(packageFolder)/Sources/smfplay/startup.order",
                        "-Xlinker", "--no-warn-symbol-ordering", "-L\(packageFolder)/Sources/smfplay/Link",
                    ], .when(configuration: .release))
            ]
        ),
        // Generates the demo library under Examples/Library from code.
        .executableTarget(
            name: "smfplay-demo-library", dependencies: ["SMF", "Files", .product(name: "SystemPackage", package: "swift-system")],
            path: "Sources/DemoLibrary"),
        // bench/compat.sh's helper: writes the compatibility songs, compares renderings of them.
        .executableTarget(
            name: "smfplay-compat",
            dependencies: [
                "CompatibilitySongs", "SoundComparison", "AudioOutput", "SMF", "Files", .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Sources/CompatibilityTool"),
        // Generates the benchmark's large file and times the reader on it; simulates the cluster split (bench/shards.sh).
        .executableTarget(
            name: "smfplay-parse-bench", dependencies: ["SMF", "Files", "Library", .product(name: "SystemPackage", package: "swift-system")],
            path: "Sources/ParseBench"),
        // libFuzzer's driver, declared: libFuzzer installs no header, and `-sanitize=fuzzer` links it.
        .systemLibrary(name: "CLibFuzzer"),
        // The fuzz targets, and the driver that runs them under libFuzzer or replays files (make fuzz; README, "Fuzzing").
        .target(
            name: "Fuzzing",
            dependencies: [
                "SMF", "Synthesis", "Configuration", "Library", "RenderJobs", "MediaPlayerService", "Files", "CLibFuzzer",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // One executable per fuzz target, so that each is a libFuzzer program of its own.
        .executableTarget(name: "fuzz-smf-reader", dependencies: ["Fuzzing"], path: "Sources/FuzzTargets/smf-reader"),
        .executableTarget(name: "fuzz-smf-parallel-tracks", dependencies: ["Fuzzing"], path: "Sources/FuzzTargets/smf-parallel-tracks"),
        .executableTarget(name: "fuzz-smf-writer", dependencies: ["Fuzzing"], path: "Sources/FuzzTargets/smf-writer"),
        .executableTarget(name: "fuzz-rmid", dependencies: ["Fuzzing"], path: "Sources/FuzzTargets/rmid"),
        .executableTarget(name: "fuzz-configuration", dependencies: ["Fuzzing"], path: "Sources/FuzzTargets/configuration"),
        .executableTarget(name: "fuzz-lists", dependencies: ["Fuzzing"], path: "Sources/FuzzTargets/lists"),
        .executableTarget(name: "fuzz-sound-module", dependencies: ["Fuzzing"], path: "Sources/FuzzTargets/sound-module"),
        .executableTarget(name: "fuzz-mpris", dependencies: ["Fuzzing"], path: "Sources/FuzzTargets/mpris"),
        .testTarget(name: "SMFTests", dependencies: ["SMF", "Files", "TestSupport"]),
        // Every committed fuzz input (seeds and regressions) replayed through its target's code.
        .testTarget(name: "FuzzingTests", dependencies: ["Fuzzing", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "Files", "TestSupport"]),
        .testTarget(name: "FilesTests", dependencies: ["Files", "TestSupport"]),
        .testTarget(name: "ResumeTests", dependencies: ["Resume", "Playback", "Library", "Files", "TestSupport"]),
        // GRDB and Storage: to make an index as an earlier smfplay did, its migrations and rows.
        .testTarget(
            name: "LibraryIndexTests",
            dependencies: ["LibraryIndex", "SMF", "Files", "Storage", "WorkerThreads", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "ConfigurationTests",
            dependencies: ["Configuration", "Files", "Synthesis", "AudioOutput", .product(name: "SystemPackage", package: "swift-system")]),
        // Its tests call FluidSynth functions smfplay does not, as its own loader and settings: linked (smfplay opens it at its first use).
        .testTarget(
            name: "SynthesisTests", dependencies: ["Synthesis", "SMF", "CFluidSynth", "TestSupport"], linkerSettings: [.linkedLibrary("fluidsynth")]),
        .testTarget(name: "AudioOutputTests", dependencies: ["AudioOutput", "Files", "TestSupport"]),
        .testTarget(name: "LoudnessTests", dependencies: ["Loudness"]),
        .testTarget(name: "ThumbnailTests", dependencies: ["Thumbnails", "SMF", "Files", "TestSupport"]),
        .testTarget(
            name: "PlaybackTests",
            dependencies: [
                "Playback", "Synthesis", "AudioOutput", "Loudness", "SMF", "SoundComparison", "CompatibilitySongs", "TestSupport",
                "AllocationCounter",
            ]),
        // Replaces the test process's allocator with one that counts the calls made on the audio thread (C: see the source).
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        .target(
            name: "TestSupport", dependencies: ["SoundComparison", .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/TestSupport"),
        .testTarget(name: "CommandLineTests", dependencies: ["TestSupport", "SMF", "AudioOutput", "Loudness", "SoundComparison"]),
        // Each target imports only what ARCHITECTURE.md allows it (reads the files, builds nothing more).
        .testTarget(name: "ArchitectureTests"),
        // The terminal's drawings (the play view's keyboard, the roll of `info --roll`), keys from a pipe or a pty, the browser's keys.
        // A batch render's bookkeeping without rendering: shards, output paths, report lines and their summary.
        .testTarget(
            name: "RenderJobsTests",
            dependencies: [
                "RenderJobs", "Playback", "Library", "Configuration", "Files", "AudioOutput", "TestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // The media keys without a bus: values published, requests read from a call's arguments, errors sent back.
        .testTarget(
            name: "MediaPlayerServiceTests",
            dependencies: [
                "MediaPlayerService", "Playback", "SMF", "Files", "TestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // smfplay's SQLite files, real ones in a temporary folder: made, checked for being smfplay's, set aside when damaged.
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Files", "Storage", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .testTarget(
            name: "TerminalUITests",
            dependencies: [
                "TerminalUI", "Playback", "Synthesis", "Thumbnails", "SMF", "Library", "LibraryIndex", "Resume", "TestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
    ]
)
