import Foundation

/// Where a Swift source opens a file itself instead of through the `Files` target: a bare C call
/// (`open(`, `openat(`, `fopen(`, `creat(`, also as `Glibc.open(`) or swift-system's
/// `FileDescriptor.open(`. Methods of smfplay's own named `open` (`.open(`, `func open(`,
/// `case open(`) are not such calls, nor is a bare `open(` in a file that declares a `func open`:
/// Swift takes it for the type's own, and the C function must be called `Glibc.open(` there.
struct RawFileAccess {
    /// A line that may open a file itself: in `file`, opening the path `opening` names.
    struct Exception {
        var file: String
        var opening: String
    }

    /// The file layer, and the C libraries' system-library targets (which open their own files).
    static let allowedFolders = [
        "Sources/Files/", "Sources/CFluidSynth/", "Sources/CSndFile/", "Sources/CPulseAudio/", "Sources/CPNG/", "Sources/CSystemd/",
    ]

    /// The terminal, which is no file of the user's; and the kernel's account of the process.
    static let exceptions = [
        Exception(file: "Sources/TerminalUI/KeyInput.swift", opening: "\"/dev/tty\""),
        Exception(file: "Sources/WorkerThreads/WorkerThreads.swift", opening: "\"/proc/self/status\""),
    ]

    /// Every raw opening under `Sources/` outside the allowed folders and exceptions, as
    /// `file:line: the line`.
    static func violations(inRepository repository: URL) throws -> [String] {
        let sources = repository.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        var found: [String] = []
        for file in files {
            let path = "Sources/" + file.path.dropFirst(sources.path.count + 1)
            guard !allowedFolders.contains(where: path.hasPrefix) else { continue }
            found += violations(inSource: try String(contentsOf: file, encoding: .utf8), file: path)
        }
        return found.sorted()
    }

    static func violations(inSource text: String, file: String) -> [String] {
        let exempt = exceptions.filter { $0.file == file }.map(\.opening)
        let ownNames = Set(text.matches(of: /func\s+(open|openat|fopen|creat)\b/).map { String($0.1) })
        var found: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = withoutComment(line)
            guard opens(code, ownNames: ownNames), !exempt.contains(where: code.contains) else { continue }
            found.append("\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
        return found
    }

    /// Whether the code calls one of the functions that open a file, but for `ownNames`, the
    /// names of functions its file declares.
    static func opens(_ code: Substring, ownNames: Set<String>) -> Bool {
        if code.contains(/\b(Glibc|Darwin|FileDescriptor)\.(open|openat|fopen|creat)\(/) { return true }
        for match in code.matches(of: /(open|openat|fopen|creat)\(/) where !ownNames.contains(String(match.1)) {
            let before = code[..<match.range.lowerBound]
            // A method, a longer name (`reopen(`), or a declaration of smfplay's own.
            if let previous = before.last, previous == "." || previous == "_" || previous.isLetter || previous.isNumber { continue }
            let word = before.trimmingCharacters(in: .whitespaces).split(separator: " ").last
            if word == "func" || word == "case" { continue }
            return true
        }
        return false
    }

    /// The line up to a `//` comment outside a string.
    static func withoutComment(_ line: Substring) -> Substring {
        var inString = false
        var previous: Character?
        for index in line.indices {
            let character = line[index]
            if character == "\"", previous != "\\" { inString.toggle() }
            if !inString, character == "/", previous == "/" { return line[..<line.index(before: index)] }
            previous = character
        }
        return line
    }
}
