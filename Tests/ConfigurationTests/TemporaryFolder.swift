import Foundation
import SystemPackage

/// A folder under the system's temporary folder, removed when the test ends. Its name
/// holds non-ASCII characters on purpose: people's folders do.
final class TemporaryFolder {
    let path: String
    var filePath: FilePath { FilePath(path) }

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("smfplay-config-Dvořák-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Creates a file (and its folders) at `relativePath` and returns its path.
    @discardableResult
    func write(_ relativePath: String, _ contents: String = "") throws -> FilePath {
        try write(relativePath, bytes: Array(contents.utf8))
    }

    @discardableResult
    func write(_ relativePath: String, bytes: [UInt8]) throws -> FilePath {
        let file = path + "/" + relativePath
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return FilePath(file)
    }

    @discardableResult
    func makeFolder(_ relativePath: String) throws -> FilePath {
        let folder = path + "/" + relativePath
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return FilePath(folder)
    }
}
