/// Why a command stopped, said once: `main` prints the message (if any; one already printed
/// leaves it out) on standard error and exits with the status. Every command ends through it
/// rather than printing and throwing on its own, so no error is printed twice.
struct CommandFailure: Error {
    /// One line for the user, without the leading `smfplay: `.
    let message: String?
    let status: ExitStatus

    init(_ message: String?, status: ExitStatus = .failure) {
        self.message = message
        self.status = status
    }

    /// A wrong command line that ArgumentParser could not see (it depends on a file's contents, say).
    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(message, status: .usage)
    }

    /// The command stopped for a reason it has already told (each file's error as it came).
    static let alreadyReported = CommandFailure(nil)

    /// Stopped by one of the signals `InterruptTrap` takes (SIGINT, SIGTERM, SIGHUP), whose
    /// status, 128 + its number, it gives.
    static func stopped(status: Int32) -> CommandFailure {
        CommandFailure(nil, status: ExitStatus(rawValue: status) ?? .interrupted)
    }
}

extension CommandFailure: CustomStringConvertible {
    /// What the browser's status line shows.
    var description: String { message ?? "failed" }
}
