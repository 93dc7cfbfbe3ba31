import SystemPackage

/// Why a file could not be written. The message names the file.
public struct FileWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    public let path: FilePath
    public let reason: String

    public init(path: FilePath, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path.text): cannot write: \(reason)" }
}
