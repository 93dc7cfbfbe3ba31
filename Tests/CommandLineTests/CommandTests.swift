import Foundation
import TestSupport
import Testing

/// The runner the other tests rely on, checked on a shell: both streams whole and apart, however
/// much is written, the environment and folder it is given, and the time limit.
@Suite("TestSupport.Command")
struct CommandTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test("a megabyte on each stream, written one after the other, comes back whole without a deadlock")
    func largeOutputOnBothStreams() throws {
        let script = #"head -c 1000000 /dev/zero | tr '\0' a; head -c 1000000 /dev/zero | tr '\0' b >&2; echo end; exit 3"#
        let result = try Command(Self.shell, arguments: ["-c", script], timeLimit: 30).run()
        #expect(result.status == 3)
        #expect(result.signal == nil)
        #expect(!result.timedOut)
        #expect(result.standardOutput.count == 1_000_004)
        #expect(result.stdout.hasSuffix("aaaend\n"))
        #expect(result.standardError.count == 1_000_000)
        #expect(result.standardError.allSatisfy { $0 == UInt8(ascii: "b") })
    }

    @Test("the environment is exactly the one given, and the program starts in the folder given")
    func environmentAndFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smfplay-command-ß-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Command(
            Self.shell, arguments: ["-c", #"pwd; echo "$GREETING|${HOME-unset}""#],
            environment: ["GREETING": "こんにちは", "PATH": "/usr/bin:/bin"],
            workingDirectory: folder
        ).run()
        #expect(result.succeeded, "\(result)")
        #expect(result.stdoutLines == [folder.path, "こんにちは|unset"], "\(result)")
    }

    @Test("a program that runs past the time limit is killed and says so")
    func timeLimit() throws {
        let result = try Command(Self.shell, arguments: ["-c", "sleep 30"], timeLimit: 0.5).run()
        #expect(result.timedOut)
        #expect(result.signal == SIGKILL)
        #expect(result.elapsed < 10)
    }
}
