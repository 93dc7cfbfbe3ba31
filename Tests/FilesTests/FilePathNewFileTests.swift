import Files
import SystemPackage
import TestSupport
import Testing

struct NewFileTests {
    @Test("a name is claimed once: the second claim finds it taken, and the file is left as it was")
    func claimedOnce() throws {
        let folder = try TemporaryFolder()
        let path = folder.filePath("claimed")
        try path.createNewFile(permissions: .ownerReadWrite)
        #expect(try path.stat().permissions == .ownerReadWrite)
        #expect(throws: Errno.fileExists) { try path.createNewFile(permissions: .ownerReadWrite) }
        #expect(try SmallFile.read(path, limit: 1) == [])
    }
}
