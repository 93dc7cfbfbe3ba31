import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension TemporaryFolder {
    /// A file at `relativePath`, its folders created; returns its path.
    @discardableResult
    public func create(_ relativePath: String, _ bytes: [UInt8] = Array("x".utf8)) throws -> String {
        let path = file(relativePath)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw CocoaError(.fileWriteUnknown) }
        return path
    }

    @discardableResult
    public func createFolder(_ relativePath: String) throws -> String {
        try FileManager.default.createDirectory(atPath: file(relativePath), withIntermediateDirectories: true)
        return file(relativePath)
    }

    public func link(_ relativePath: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: file(relativePath), withDestinationPath: destination)
    }
}

/// The start of a Standard MIDI File: enough for content detection.
public let midiHeader: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96]

/// Permissions do not stop root, so a check of what a user without them sees
/// runs in an exit test's child process that first becomes `nobody`. Called in
/// that child only.
public func becomeUnprivilegedUser() {
    guard geteuid() == 0 else { return }
    guard setgid(65534) == 0, setuid(65534) == 0 else { exit(90) }
}

/// Writes a line to standard error, where the parent of an exit test reads it.
public func report(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// What an exit test's child wrote to standard error.
public func standardError(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}
