#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import AudioOutput
import Configuration
import Library
import Playback

/// Which files to render where: inputs expanded into MIDI files, each paired
/// with its output, folders mirrored under the output folder.
struct RenderPlan {
    private(set) var jobs: [RenderJob] = []
    /// Outputs newer than their MIDI file, left alone.
    private(set) var skipped: [RenderJob] = []
    /// Inputs that could not be used, as one-line messages.
    private(set) var problems: [String] = []

    /// Why no plan could be made: a file system problem, not a usage error.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(inputs: [String], output: String?, format: RenderSettings.FileFormat, force: Bool) throws(Failure) {
        if inputs.count == 1, !Self.isFolder(inputs[0]) {
            let input = inputs[0]
            var target = output ?? Self.replacingExtension(of: input, with: format.fileExtension)
            if let output, output.hasSuffix("/") || Self.isFolder(output) {
                try Self.createFolder(output)
                target = Self.join(output, Self.replacingExtension(of: Self.name(of: input), with: format.fileExtension))
            }
            guard !Self.isSameFile(input, target) else {
                throw Failure(description: "\(target): that is the MIDI file being rendered; choose another output")
            }
            jobs = [RenderJob(input: input, output: target)]
            return
        }
        guard let output else {
            throw Failure(description: "-o FOLDER is needed to render a folder or several files")
        }
        try Self.createFolder(output)
        /// Which MIDI file each output is rendered from: `a.mid` and `a.kar` in one folder, or
        /// two folders with a `song.mid` each, would otherwise overwrite each other's output.
        var sources: [String: String] = [:]
        for input in inputs {
            var collector = MIDIFileCollector()
            collector.add(path: input)
            problems += collector.problems.map(\.description)
            let base = Self.isFolder(input) ? input : nil
            for file in collector.files {
                let relative = base.map { String(file.dropFirst($0.count).drop { $0 == "/" }) } ?? Self.name(of: file)
                let job = RenderJob(input: file, output: Self.join(output, Self.replacingExtension(of: relative, with: format.fileExtension)))
                if let first = sources[job.output] {
                    problems.append("\(file): not rendered: its output, \(job.output), is \(first)'s; rename one of them")
                    continue
                }
                sources[job.output] = file
                if !force, Self.isUpToDate(job) {
                    skipped.append(job)
                    continue
                }
                do {
                    try Self.createFolder(Self.folder(of: job.output))
                    jobs.append(job)
                } catch {
                    problems.append(error.description)
                }
            }
        }
    }

    /// The format an output path asks for by its extension.
    static func fileFormat(ofPath path: String) -> RenderSettings.FileFormat? {
        AudioFileFormat(path: path).flatMap { RenderSettings.FileFormat(rawValue: $0.rawValue) }
    }

    private static func isUpToDate(_ job: RenderJob) -> Bool {
        var input = stat()
        var output = stat()
        guard stat(job.input, &input) == 0, stat(job.output, &output) == 0 else { return false }
        return (output.st_mtim.tv_sec, output.st_mtim.tv_nsec) >= (input.st_mtim.tv_sec, input.st_mtim.tv_nsec)
    }

    private static func isSameFile(_ first: String, _ second: String) -> Bool {
        var one = stat()
        var other = stat()
        return stat(first, &one) == 0 && stat(second, &other) == 0 && one.st_dev == other.st_dev && one.st_ino == other.st_ino
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates a folder and the folders above it, like `mkdir -p`.
    private static func createFolder(_ path: String) throws(Failure) {
        guard !path.isEmpty, !isFolder(path) else { return }
        let parent = folder(of: path)
        if parent != path { try createFolder(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            let reason = errno == ENOTDIR ? "a part of it is a file, not a folder" : String(cString: strerror(errno))
            throw Failure(description: "\(path): cannot create folder: \(reason)")
        }
    }

    private static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func replacingExtension(of path: String, with newExtension: String) -> String {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[nameStart...].lastIndex(of: "."), dot != nameStart {
            return String(path[..<dot]) + "." + newExtension
        }
        return path + "." + newExtension
    }
}
