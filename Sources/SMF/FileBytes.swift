import Files
import SystemPackage
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// Loads a whole MIDI file, refusing anything that is not a regular file of a sane size.
enum FileBytes {
    static func read(path: FilePath, limit: Int) throws(SMFFileError) -> [UInt8] {
        do {
            let file = try ReadableFile(path)
            // A large file is read in slices on all cores (see `ReadableFile.readAll`).
            return try file.readAll(limit: limit, parts: file.size >= 1 << 20 ? 8 : 1) { parts, readPart in
                _ = WorkerThreads.results(ofJobs: parts, readPart)
            }
        } catch {
            // A member of an archive (`pack.zip/song.mid`): no real file can be under a regular file.
            if case .system(.notDirectory) = error, let archived = ArchivedPath(path) {
                do {
                    return try archived.read(memberLimit: limit)
                } catch {
                    throw .unreadable(path: path, reason: error.description)
                }
            }
            switch error {
            case .missing: throw .unreadable(path: path, reason: SystemError.text(ENOENT))
            case .folder, .notARegularFile: throw .notARegularFile(path: path)
            case .tooLarge(let size, let limit): throw .tooLarge(path: path, size: Int(size), limit: limit)
            case .system(let cause): throw .unreadable(path: path, reason: SystemError.text(cause.rawValue))
            }
        }
    }

    /// The bytes of the file at `path`, or of the file above it when `path` names one of its songs
    /// (`music.xmi/2`: no real file can lie under a regular file), with the song's index from 0.
    static func read(song path: FilePath, limit: Int) throws(SMFFileError) -> (bytes: [UInt8], song: Int?) {
        do {
            return (try read(path: path, limit: limit), nil)
        } catch {
            guard let song = path.numberedSong, let file = try? read(path: song.file, limit: limit), XMIReader.isXMI(file) else { throw error }
            return (file, song.number - 1)
        }
    }
}
