import AudioOutput
import Configuration
import Files
import Library
import SystemPackage
import TestSupport

@testable import RenderJobs

/// MIDI files of different sizes in a temporary folder, and the plans a render makes of them.
struct RenderCollection {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// A file that starts as a MIDI file, `size` bytes long (sizes weigh the cluster split).
    @discardableResult
    func write(_ relativePath: String, size: Int = 100) throws -> FilePath {
        FilePath(try folder.create(relativePath, midiHeader + [UInt8](repeating: 0, count: max(0, size - midiHeader.count))))
    }

    /// Twelve files of twelve sizes in two folders under `in`: their paths relative to `in`.
    func writeTwelveSongs() throws -> [String] {
        var names: [String] = []
        for index in 0..<12 {
            let name = "\(index % 2 == 0 ? "even" : "odd")/song \(index).mid"
            try write("in/" + name, size: 100 * (index + 1) * (index + 1))
            names.append(name)
        }
        return names
    }

    /// A plan into `out`, every output rendered again (`--force`), as `render … -o out` makes it.
    func plan(
        _ inputs: [String] = [], manifest: InputManifest? = nil, output: String = "out", format: AudioFileFormat = .wav,
        force: Bool = true, shard: Shard? = nil
    ) throws -> RenderPlan {
        try RenderPlan(
            inputs: inputs.map(path), manifest: manifest, output: path(output), outputIsFolder: true, format: format, force: force, shard: shard)
    }

    func path(_ relativePath: String) -> FilePath { folder.filePath(relativePath) }

    /// A path of the plan's, relative to the folder.
    func relative(_ path: FilePath) -> String {
        String(path.string.dropFirst(folder.path.count + 1))
    }
}
