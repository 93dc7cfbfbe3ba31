import Files
import SMF
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Copies files received from elsewhere (a download, a mail, a USB stick) into a
/// folder of the library, by default its `Inbox`.
///
/// A file is taken for its content, not its name: it must start like a MIDI file
/// (``MIDIFileDetector/hasMIDIContent(at:)``). A copy never replaces a file:
/// when the name is taken it becomes `Name (2).mid`, `Name (3).mid`… and it appears
/// whole or not at all: it is written to a hidden temporary file in the folder,
/// flushed to disk, and only then given its name with `link()`, which fails rather
/// than replace a file, so two imports racing for one name each get their own.
public struct LibraryImporter: Sendable {
    /// The folder copies go in; it is made, with the folders above it, when needed.
    public let folder: FilePath

    /// The library's folder for files just received, where imports go by default.
    public static let inboxFolderName = "Inbox"

    /// How many numbered names are tried before giving up on a name.
    static let nameAttempts = 10_000

    public init(folder: FilePath) {
        self.folder = folder
    }

    /// Copies the file at `source` into the folder and returns the copy's path.
    public func importFile(at source: FilePath) throws(LibraryImportError) -> FilePath {
        let input: ReadableFile
        do {
            input = try ReadableFile(source)
        } catch {
            if case .system(.notDirectory) = error, let member = ArchivedPath(source) { return try importMember(member, at: source) }
            switch error {
            case .missing: throw .unreadable(path: source, reason: SystemError.text(ENOENT))
            case .folder: throw .isFolder(path: source)
            case .notARegularFile, .tooLarge, .system: throw .unreadable(path: source, reason: error.description)
            }
        }
        guard MIDIFileDetector.hasMIDIContent(input) else { throw .notMIDI(path: source) }
        guard let name = source.lastComponent else { throw .isFolder(path: source) }

        let copy = try stagedCopy(named: name)
        try Self.copy(from: input, source: source, to: copy)
        return try claimName(for: name, giving: copy)
    }

    /// A hidden file in the folder (made if missing) to write a copy named `name` into.
    private func stagedCopy(named name: FilePath.Component) throws(LibraryImportError) -> StagedFile {
        do {
            try folder.makeFolders(permissions: [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute])
        } catch {
            throw .cannotWrite(path: error.folder, reason: error.errno == .fileExists ? "not a folder" : SystemError.text(error.errno.rawValue))
        }
        do {
            return try StagedFile(destination: folder.appending(name))
        } catch {
            if case .system(let errno) = error, Self.meansDiskFull(errno) { throw .diskFull(path: folder.appending(name), errno: errno) }
            throw .cannotWrite(path: folder, reason: error.description)
        }
    }

    /// Copies a song out of an archive (`pack.lzh/song.mid`), under its own name.
    private func importMember(_ member: ArchivedPath, at source: FilePath) throws(LibraryImportError) -> FilePath {
        let bytes: [UInt8]
        do {
            bytes = try member.read(memberLimit: SMFReadingPolicy().maximumFileSize)
        } catch {
            throw .unreadable(path: source, reason: error.description)
        }
        guard MIDIFileSignature.matches(bytes.prefix(MIDIFileSignature.length)) else { throw .notMIDI(path: source) }
        guard let name = source.lastComponent else { throw .isFolder(path: source) }
        let copy = try stagedCopy(named: name)
        do {
            try copy.write(bytes)
        } catch {
            if Self.meansDiskFull(error.rawValue) { throw .diskFull(path: copy.destination, errno: error.rawValue) }
            throw .cannotWrite(path: folder, reason: SystemError.text(error.rawValue))
        }
        return try claimName(for: name, giving: copy)
    }

    /// Gives the copy the first free numbered name.
    private func claimName(for name: FilePath.Component, giving copy: StagedFile) throws(LibraryImportError) -> FilePath {
        let names = NumberedFileName(name.bytes)
        for number in 1...Self.nameAttempts {
            let destination = folder.appending(names.candidate(number))
            do {
                if try copy.commit(asNewFile: destination) { return destination }
            } catch {
                throw .cannotWrite(path: destination, reason: SystemError.text(error.rawValue))
            }
        }
        copy.discard()
        throw .cannotWrite(path: folder.appending(name), reason: "\(Self.nameAttempts) files by this name already")
    }

    private static func meansDiskFull(_ errno: Int32) -> Bool {
        errno == ENOSPC || errno == EDQUOT
    }

    /// Copies everything from `input` into `output`.
    private static func copy(from input: ReadableFile, source: FilePath, to output: StagedFile) throws(LibraryImportError) {
        var copied: Int64 = 0
        while true {
            let chunk: [UInt8]
            do {
                chunk = try input.read(upTo: 1 << 16, at: copied)
            } catch {
                throw .unreadable(path: source, reason: SystemError.text(error.rawValue))
            }
            if chunk.isEmpty { return }
            do {
                try output.write(chunk)
            } catch {
                if meansDiskFull(error.rawValue) { throw .diskFull(path: output.destination, errno: error.rawValue) }
                throw .cannotWrite(path: output.destination.containingFolder, reason: SystemError.text(error.rawValue))
            }
            copied += Int64(chunk.count)
        }
    }
}
