import Foundation
import SystemPackage
import TestSupport
import Testing

@testable import Files

#if canImport(Glibc)
    import Glibc
#endif

struct AtomicWriteTests {
    @Test func replacesTheFileAndLeavesNothingElse() throws {
        let folder = try TemporaryFolder()
        let path = folder.filePath("state.json")
        try AtomicWrite.write(Array("old".utf8), to: path)
        try AtomicWrite.write(Array("new".utf8), to: path)
        #expect(try String(contentsOfFile: path.string, encoding: .utf8) == "new")
        #expect(try folder.contents() == ["state.json"])
    }

    @Test func createsMissingFoldersForTheUserOnly() throws {
        let folder = try TemporaryFolder()
        let path = folder.filePath("state/smfplay/state.json")
        try AtomicWrite.write(Array("{}".utf8), to: path, access: .personal)
        #expect(try String(contentsOfFile: path.string, encoding: .utf8) == "{}")
        #expect((try FileManager.default.attributesOfItem(atPath: path.string)[.posixPermissions] as? Int) == 0o600)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.file("state/smfplay"))
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func aFileInThePlaceOfTheFolderIsAnErrorNamingTheFile() throws {
        let folder = try TemporaryFolder()
        try folder.create("smfplay")
        let path = folder.filePath("smfplay/state.json")
        #expect(throws: FileWriteError(path: path, reason: "\(folder.file("smfplay")) is a file, not a folder")) {
            try AtomicWrite.write([1], to: path)
        }
    }

    @Test func aFolderInThePlaceOfTheFileKeepsItAndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        try folder.create("state.json/inside")
        let error = #expect(throws: FileWriteError.self) { try AtomicWrite.write([1], to: folder.filePath("state.json")) }
        #expect(error?.description == "\(folder.file("state.json")): cannot write: is a directory")
        #expect(try folder.contents() == ["state.json"])
    }

    /// A disk that fills up mid-write: the file-size limit makes `write` fail
    /// (EFBIG) once the temporary file reaches it. Set in a child process, so that
    /// no other test's writes meet it.
    @Test func aWriteThatFailsHalfwayLeavesTheOldFileWhole() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.json")
        try AtomicWrite.write(Array("old contents".utf8), to: FilePath(path))
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [path = path as String] in
            signal(SIGXFSZ, SIG_IGN)
            var limit = rlimit(rlim_cur: 4096, rlim_max: 4096)
            guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { exit(91) }
            do {
                try AtomicWrite.write([UInt8](repeating: 7, count: 100_000), to: FilePath(path))
                report("written")
            } catch {
                report("\(error)")
            }
        }
        #expect(standardError(result) == "\(path): cannot write: file too large\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old contents")
        #expect(try folder.contents() == ["cache.json"])
    }

    /// A folder the user cannot write to. Root writes anywhere, so the child
    /// process becomes `nobody` first.
    @Test func aReadOnlyFolderLeavesTheOldFileWhole() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("state.json")
        try AtomicWrite.write(Array("old".utf8), to: FilePath(path))
        chmod(folder.path, 0o555)
        defer { chmod(folder.path, 0o755) }
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [path = path as String] in
            becomeUnprivilegedUser()
            do {
                try AtomicWrite.write(Array("new".utf8), to: FilePath(path))
                report("written")
            } catch {
                report("\(error)")
            }
        }
        #expect(standardError(result) == "\(path): cannot write: permission denied\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try folder.contents() == ["state.json"])
    }

    @Test func aNameThatIsNotUTF8KeepsItsBytes() throws {
        let folder = try TemporaryFolder()
        // "曲.wav" in Shift-JIS.
        let name: [UInt8] = [0x8B, 0xC8] + Array(".wav".utf8)
        let path = FilePath(bytes: folder.filePath.bytes + [UInt8(ascii: "/")] + name)
        try AtomicWrite.write(Array("RIFF".utf8), to: path)
        #expect(SmallFile.readOrNil(path) == Array("RIFF".utf8))
        #expect(path.lastComponent?.text == "曲.wav")
        #expect(try folder.contents().count == 1)
    }
}

extension SmallFile {
    static func readOrNil(_ path: FilePath) -> [UInt8]? { try? read(path, limit: 1 << 20) }
}
