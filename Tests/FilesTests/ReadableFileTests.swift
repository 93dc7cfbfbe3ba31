import Files
import SystemPackage
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct ReadableFileTests {
    @Test("what is not a regular file is refused as it is opened, a FIFO without waiting for a writer")
    func onlyRegularFilesOpen() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileReadError.notARegularFile) { try ReadableFile(FilePath(fifo)) }
        #expect(throws: FileReadError.notARegularFile) { try ReadableFile("/dev/null") }
        #expect(throws: FileReadError.folder) { try ReadableFile(folder.filePath) }
        #expect(throws: FileReadError.missing) { try ReadableFile(folder.filePath("gone")) }
        #expect(throws: FileReadError.system(.notDirectory)) { try ReadableFile(FilePath(try folder.create("file") + "/below")) }
    }

    @Test("the whole file, in one part or in several; refused past the limit, saying its size")
    func readAll() throws {
        let folder = try TemporaryFolder()
        let bytes = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let file = try ReadableFile(FilePath(try folder.create("data", bytes)))
        #expect(file.size == 100_003)
        #expect(try file.readAll(limit: 100_003) == bytes)
        // The parts in any order, as threads may read them.
        #expect(try file.readAll(limit: 1 << 20, parts: 8) { parts, readPart in (0..<parts).reversed().forEach(readPart) } == bytes)
        #expect(throws: FileReadError.tooLarge(size: 100_003, limit: 100_002)) { try file.readAll(limit: 100_002) }
        #expect(try ReadableFile(FilePath(try folder.create("empty", []))).readAll(limit: 0, parts: 8) == [])
    }

    @Test("a read at an offset is short only at the end of the file")
    func readAtAnOffset() throws {
        let folder = try TemporaryFolder()
        let file = try ReadableFile(FilePath(try folder.create("data", Array("MThd and more".utf8))))
        #expect(try file.read(upTo: 4, at: 0) == Array("MThd".utf8))
        #expect(try file.read(upTo: 100, at: 9) == Array("more".utf8))
        #expect(try file.read(upTo: 100, at: 13) == [])
    }

    @Test("a file that shrinks while it is read gives what it still has")
    func aFileThatShrank() throws {
        let folder = try TemporaryFolder()
        let path = try folder.create("data", [UInt8](repeating: 1, count: 1000))
        let file = try ReadableFile(FilePath(path))
        #expect(truncate(path, 600) == 0)
        #expect(try file.readAll(limit: 1000, parts: 4) == [UInt8](repeating: 1, count: 600))
    }
}
