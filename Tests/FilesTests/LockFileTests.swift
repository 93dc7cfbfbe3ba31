import Files
import SystemPackage
import TestSupport
import Testing

struct LockFileTests {
    @Test("a second opening is refused with what the holder wrote; the lock goes with its holder, the file stays")
    func oneHolder() throws {
        let folder = try TemporaryFolder()
        let path = folder.filePath("lock")
        var holder: LockFile? = try LockFile(path, holder: Array("123\n".utf8))
        #expect(throws: LockFile.Failure.held(holder: Array("123\n".utf8))) { try LockFile(path, holder: Array("456\n".utf8)) }
        #expect(holder?.path == path)
        holder = nil
        let next = try LockFile(path, holder: Array("7\n".utf8))
        #expect(try SmallFile.read(next.path, limit: 100) == Array("7\n".utf8))
        #expect(throws: LockFile.Failure.system(.noSuchFileOrDirectory)) { try LockFile(folder.filePath("gone/lock"), holder: []) }
    }
}
