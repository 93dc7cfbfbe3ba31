// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "smfplay",
    products: [
        .executable(name: "smfplay", targets: ["smfplay"]),
        .library(name: "SMF", targets: ["SMF"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The Standard MIDI File reader and writer: pure Swift, no C dependencies.
        .target(name: "SMF"),
        // The user's MIDI files: finding them in folders, in the order people expect.
        .target(name: "Library"),
        .executableTarget(
            name: "smfplay",
            dependencies: [
                "SMF",
                "Library",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Generates the demo library under Examples/Library from code.
        .executableTarget(name: "smfplay-demo-library", dependencies: ["SMF"], path: "Sources/DemoLibrary"),
        // Generates the benchmark's large file and times the reader on it.
        .executableTarget(name: "smfplay-parse-bench", dependencies: ["SMF"], path: "Sources/ParseBench"),
        .testTarget(name: "SMFTests", dependencies: ["SMF"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library"]),
    ]
)
