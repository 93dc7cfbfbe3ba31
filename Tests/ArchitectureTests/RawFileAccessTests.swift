import Foundation
import Testing

/// Every file the program opens is opened through `Files` (ARCHITECTURE.md: "Everything that
/// touches a file goes through `Files`"), but for the exceptions `RawFileAccess` names.
struct RawFileAccessTests {
    @Test func noSourceOutsideFilesOpensAFileItself() throws {
        let violations = try RawFileAccess.violations(inRepository: TargetImportsTests.repository)
        #expect(violations.isEmpty, "opened without Files:\n\(violations.joined(separator: "\n"))")
    }

    /// The check itself: each way of opening is found, with its file and line; methods and
    /// declarations named `open`, comments and the exceptions are not.
    @Test func aRawOpeningIsFound() {
        let source = """
            let fd = path.withPlatformString { open($0, O_RDONLY) }
            let other = Glibc.open(path, O_RDONLY)
            guard let file = fopen(name, "r") else { return }
            let relative = openat(folder, name, O_RDONLY)
            let descriptor = try FileDescriptor.open(path, .readOnly)
            database = try LibraryIndexUpdate.open(root: root)
            case open(FilePath)
            gate.open(go: true)
            reopen(file)
            // open(2) is not called here
            let uri = "file://x" // open(path)
            let tty = open("/dev/tty", O_RDONLY)
            """
        #expect(
            RawFileAccess.violations(inSource: source, file: "Sources/Library/Example.swift") == [
                "Sources/Library/Example.swift:1: let fd = path.withPlatformString { open($0, O_RDONLY) }",
                "Sources/Library/Example.swift:2: let other = Glibc.open(path, O_RDONLY)",
                "Sources/Library/Example.swift:3: guard let file = fopen(name, \"r\") else { return }",
                "Sources/Library/Example.swift:4: let relative = openat(folder, name, O_RDONLY)",
                "Sources/Library/Example.swift:5: let descriptor = try FileDescriptor.open(path, .readOnly)",
                "Sources/Library/Example.swift:12: let tty = open(\"/dev/tty\", O_RDONLY)",
            ])
        #expect(RawFileAccess.violations(inSource: source, file: "Sources/TerminalUI/KeyInput.swift").count == 5)
        let ownOpen = """
            static func open(root: FilePath) -> Database { fatalError() }
            let database = try open(root: root)
            let fd = Glibc.open(path, O_RDONLY)
            """
        #expect(
            RawFileAccess.violations(inSource: ownOpen, file: "Sources/smfplay/Example.swift") == [
                "Sources/smfplay/Example.swift:3: let fd = Glibc.open(path, O_RDONLY)"
            ])
    }
}
