/// The latest thing to tell the user in a full-screen view, where a line on standard error would
/// be drawn over: warnings, files skipped, failures.
final class StatusMessages {
    private(set) var latest: String?

    func post(_ message: String) {
        latest = message
    }
}
