import Foundation

/// A folder under the system's temporary folder, removed when the test ends. Its name
/// holds non-ASCII characters on purpose: people's folders do.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("smfplay-config-Dvořák-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Creates a file (and its folders) at `relativePath` and returns its path.
    @discardableResult
    func write(_ relativePath: String, _ contents: String = "") throws -> String {
        try write(relativePath, bytes: Array(contents.utf8))
    }

    @discardableResult
    func write(_ relativePath: String, bytes: [UInt8]) throws -> String {
        let file = path + "/" + relativePath
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return file
    }

    @discardableResult
    func makeFolder(_ relativePath: String) throws -> String {
        let folder = path + "/" + relativePath
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}
