import Foundation
import SystemPackage

/// A fresh folder under the system's temporary folder, removed with everything in it when dropped.
public final class TemporaryFolder {
    public let path: String

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("smfplay-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Every name in the folder, hidden ones included, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}

extension TemporaryFolder {
    /// The folder as a file system path.
    public var filePath: FilePath { FilePath(path) }

    /// A file or folder inside, as a file system path.
    public func filePath(_ name: String) -> FilePath { FilePath(file(name)) }
}
