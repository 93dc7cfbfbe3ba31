import Foundation

/// Executables of this package, as SwiftPM built them for the tests that are running.
///
/// `swift build --build-tests` puts every product in the same folder as the test runner
/// (`<scratch path>/<triple>/<configuration>/`), whatever the scratch path, so the tests
/// always run the binaries built from the same sources as themselves.
public enum BuiltProduct {
    /// The executable `name` next to the test runner, or beside the test bundle on platforms
    /// where tests are bundles; nil when it was not built.
    public static func url(named name: String) -> URL? {
        for folder in candidateFolders() {
            // Walk up a little: on macOS the runner sits inside `<name>.xctest/Contents/MacOS/`.
            var candidate = folder
            for _ in 0..<4 {
                let executable = candidate.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: executable.path) { return executable }
                candidate = candidate.deletingLastPathComponent()
            }
        }
        return nil
    }

    /// What to tell the person running the tests when `url(named:)` found nothing.
    public static func notFoundMessage(_ name: String) -> String {
        """
        \(name) was not found next to the test runner (\(CommandLine.arguments.first ?? "?")); \
        build it with `swift build --build-tests` (or `swift build --product \(name)`) \
        using the same scratch path and configuration as the tests
        """
    }

    private static func candidateFolders() -> [URL] {
        var folders: [URL] = []
        if let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: runner).deletingLastPathComponent())
        }
        if let argument = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: argument).standardizedFileURL.deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return folders
    }
}
