import AudioOutput
import Configuration
import Files
import Library
import Playback
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Which files to render where: inputs expanded into MIDI files, each paired
/// with its output, folders mirrored under the output folder; with a shard, only
/// the files of that shard (see ``BalancedSplit``).
public struct RenderPlan: Sendable {
    public private(set) var jobs: [RenderJob] = []
    /// Outputs newer than their MIDI file, left alone.
    public private(set) var skipped: [RenderJob] = []
    /// Inputs that could not be used.
    public private(set) var problems: [RenderProblem] = []
    /// Files that other shards render.
    public private(set) var otherShards = 0

    /// Why no plan could be made: a file system problem, not a usage error.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `inputs` and `output` as the command line gave them (see `CommandLinePath`). With `stems`,
    /// each song's output is a folder named as its file would be, without the extension
    /// (``StemRenderer``), up to date when its mix is.
    public init(
        inputs: [FilePath], manifest: InputManifest?, output: FilePath?, outputIsFolder: Bool, format: AudioFileFormat,
        force: Bool, shard: Shard?, stems: Bool = false
    ) throws(Failure) {
        let outputExtension = stems ? nil : format.fileExtension
        if manifest == nil, Self.isOneFile(inputs) {
            let input = inputs[0]
            var target = output ?? Self.replacingExtension(of: input, with: outputExtension)
            if let output, outputIsFolder || output.isFolder {
                try Self.createFolder(output)
                target = output.appending(
                    Self.replacingExtension(
                        of: FilePath(root: nil, input.lastComponent.map { [$0] } ?? []),
                        with: outputExtension
                    ).components)
            }
            guard !Self.isSameFile(input, target) else {
                throw Failure(description: "\(target.text): that is the MIDI file being rendered; choose another output")
            }
            if let shard, Self.split([input.lastComponent?.bytes ?? []], [Int((try? input.fileSize()) ?? 0)], shard).first != shard.index {
                otherShards = 1
                return
            }
            jobs = [RenderJob(input: input, output: target)]
            return
        }
        guard let output else {
            throw Failure(description: "-o FOLDER is needed to render a folder, a playlist or several files")
        }
        try Self.createFolder(output)
        let collected = RenderInputs(inputs: inputs, manifest: manifest)
        problems = collected.problems
        /// Which MIDI file each output is rendered from: `a.mid` and `a.kar` in one folder, or
        /// two folders with a `song.mid` each, would otherwise overwrite each other's output.
        /// Decided over all the files, before the split, so that every shard decides alike.
        var sources: [FilePath: FilePath] = [:]
        var candidates: [(job: RenderJob, key: [UInt8])] = []
        for item in collected.items {
            let job = RenderJob(input: item.input, output: output.pushing(Self.replacingExtension(of: item.relativePath, with: outputExtension)))
            if let first = sources[job.output] {
                // The same file given twice (`a.mid a.mid`, or a folder and a file in it) is one job.
                if first == job.input || Self.isSameFile(first, job.input) { continue }
                problems.append(
                    RenderProblem(
                        input: job.input, output: job.output,
                        description: "\(job.input.text): not rendered: its output, \(job.output.text), is \(first.text)'s; rename one of them"))
                continue
            }
            sources[job.output] = job.input
            candidates.append((job, item.relativePath.bytes))
        }
        // Sizes weigh the split; a file that cannot be looked at weighs nothing, and its shard reports it.
        let statuses = candidates.map { candidate in Result { () throws(Errno) in try candidate.job.input.fileSize() } }
        let shards = shard.map { Self.split(candidates.map(\.key), statuses.map { Int((try? $0.get()) ?? 0) }, $0) }
        for (index, candidate) in candidates.enumerated() {
            let job = candidate.job
            if let shard, shards?[index] != shard.index {
                otherShards += 1
                continue
            }
            if case .failure(let error) = statuses[index] {
                problems.append(
                    RenderProblem(input: job.input, output: job.output, description: "\(job.input.text): \(SystemError.text(error.rawValue))"))
                continue
            }
            if !force, Self.isUpToDate(job.input, stems ? StemRenderer.mixPath(in: job.output, format: format) : job.output) {
                skipped.append(job)
                continue
            }
            do {
                try Self.createFolder(job.output.removingLastComponent())
                jobs.append(job)
            } catch {
                problems.append(RenderProblem(input: job.input, output: job.output, description: error.description))
            }
        }
    }

    private static func split(_ keys: [[UInt8]], _ weights: [Int], _ shard: Shard) -> [Int] {
        BalancedSplit(keys: keys, weights: weights, shardCount: shard.count).shards
    }

    /// Whether the inputs are one MIDI file, whose output is a file (not a folder of outputs, as
    /// for a folder, a playlist or several inputs).
    public static func isOneFile(_ inputs: [FilePath]) -> Bool {
        inputs.count == 1 && !MIDIFileCollector.holdsSongs(inputs[0]) && !M3UPlaylist.isPlaylist(inputs[0])
    }

    /// Whether the output is a file as new as the input (a member of an archive is as new as its
    /// archive); a folder in its place is no output, and its render says it cannot be written.
    private static func isUpToDate(_ inputPath: FilePath, _ outputPath: FilePath) -> Bool {
        guard outputPath.kind == .regular, let input = FileStamp(ofFileAt: inputPath), let output = FileStamp(ofFileAt: outputPath) else {
            return false
        }
        return (output.modifiedSeconds, output.modifiedNanoseconds) >= (input.modifiedSeconds, input.modifiedNanoseconds)
    }

    private static func isSameFile(_ first: FilePath, _ second: FilePath) -> Bool {
        FileIdentity(path: first).map { $0 == FileIdentity(path: second) } ?? false
    }

    /// Creates a folder and the folders above it, like `mkdir -p`; a file where a folder must be
    /// is an error here, not when the render comes to write into it.
    private static func createFolder(_ path: FilePath) throws(Failure) {
        guard !path.isEmpty, !path.isFolder else { return }
        do {
            try path.makeFolders(permissions: FilePermissions(rawValue: 0o755))
        } catch {
            throw Failure(description: "\(path.text): cannot create folder: \(error.description)")
        }
    }

    /// `song.mid` → `song.wav` (or `song`, for a nil extension), the name's other bytes kept as they are.
    private static func replacingExtension(of path: FilePath, with newExtension: String?) -> FilePath {
        var renamed = path
        renamed.extension = newExtension
        return renamed
    }
}
