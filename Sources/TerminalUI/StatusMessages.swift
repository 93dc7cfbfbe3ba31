/// The latest thing to tell the user in a full-screen view, where a line on standard error would
/// be drawn over: warnings, files skipped, failures.
public final class StatusMessages {
    private(set) var latest: String?

    public init() {}

    public func post(_ message: String) {
        latest = message
    }
}
