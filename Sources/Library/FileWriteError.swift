/// Why a file smfplay keeps (the resume state, a cache) could not be written.
public struct FileWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "\(path): cannot write: \(reason)" }
}
