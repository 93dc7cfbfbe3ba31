import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A command line run as a person types it into a shell, pipes and all: `/bin/sh -c "… | …"` in
/// the sandbox's work folder, with the sandbox's environment and `$SMFPLAY` naming the built
/// binary. Signals start at their defaults: the test runner may ignore SIGPIPE, and an ignored
/// signal stays ignored across exec, which would hide how a program ends when its reader goes.
/// Standard input is /dev/null; standard output and error are kept in files outside the work folder.
struct ShellPipeline {
    struct Result: CustomStringConvertible {
        var script: String
        /// As the shell reports it: the exit status, or 128 + the signal that ended the shell.
        var status: Int32
        var standardOutput: Data
        var stderr: String
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
        var stdoutLines: [String] { String(decoding: standardOutput, as: UTF8.self).split(separator: "\n").map(String.init) }

        var description: String {
            "`\(script)` ended with status \(status)\n--- standard output: \(standardOutput.count) bytes ---\n--- standard error ---\n\(stderr)---"
        }
    }

    static func run(_ script: String, in sandbox: Sandbox, environment extra: [String: String] = [:], timeLimit: Double = 60) throws -> Result {
        let smfplay = try #require(Sandbox.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        let outputPath = sandbox.root + "/shell-\(UUID().uuidString).stdout"
        let errorPath = sandbox.root + "/shell-\(UUID().uuidString).stderr"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        var environment = sandbox.environment.merging(extra) { $1 }
        environment["SMFPLAY"] = smfplay.path
        environment["SANDBOX_WORK"] = sandbox.work

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let pid = try spawnWithCleanSignals(
            "/bin/sh", ["-c", "cd \"$SANDBOX_WORK\" || exit 99\n" + script], environment: environment,
            actions: &actions, newProcessGroup: true
        ).get()
        let deadline = Date().addingTimeInterval(timeLimit)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                // The whole pipeline: every program in it is in the shell's process group.
                kill(-pid, SIGKILL)
                waitpid(pid, &status, 0)
                Issue.record("`\(script)` ran for more than \(timeLimit) s")
                break
            }
            usleep(10_000)
        }
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            script: script, status: exitStatus, standardOutput: try Data(contentsOf: URL(fileURLWithPath: outputPath)),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errorPath)), as: UTF8.self))
    }
}
