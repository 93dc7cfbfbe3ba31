import Files
import SystemPackage
import TestSupport
import Testing

struct AppendOnlyFileTests {
    @Test("made when missing, added to at its end when opened again; a folder in the way is an error naming the file")
    func appends() throws {
        let folder = try TemporaryFolder()
        let path = folder.filePath("log.jsonl")
        #expect(try AppendOnlyFile(path).append(Array("one\n".utf8)) == 4)
        #expect(try AppendOnlyFile(path).append(Array("two\n".utf8)) == 4)
        #expect(try SmallFile.read(path, limit: 100) == Array("one\ntwo\n".utf8))
        try folder.createFolder("taken")
        #expect(throws: FileWriteError(path: folder.filePath("taken"), reason: "is a directory")) { try AppendOnlyFile(folder.filePath("taken")) }
    }
}
