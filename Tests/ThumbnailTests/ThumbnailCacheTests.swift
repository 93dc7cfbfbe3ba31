import Files
import SystemPackage
import Testing
import Thumbnails

@Suite("Thumbnail cache")
struct ThumbnailCacheTests {
    @Test("a thumbnail is named by the MD5 of its file's URI: the Thumbnail Managing Standard's own example")
    func namedAsTheStandardSays() {
        let cache = ThumbnailCache(cacheHome: "/home/jens/.cache")
        #expect(cache.path(for: "/home/jens/photos/me.png") == "/home/jens/.cache/thumbnails/normal/c6ee772d9e49320e97ec29a7eb5b1697.png")
    }

    @Test("a file's URI escapes what GLib escapes, byte for byte, and reads back to the same bytes")
    func fileURIsAreGLibs() {
        let path = FilePath(bytes: Array("/Música/Op. 9 (No.2) #1 & 50%".utf8) + [0x93, 0xFA])
        #expect(path.fileURI == "file:///M%C3%BAsica/Op.%209%20(No.2)%20%231%20&%2050%25%93%FA")
        #expect(FilePath(fileURI: path.fileURI) == path)
        #expect(FilePath(fileURI: "file://localhost/a%20b.mid") == "/a b.mid")
        #expect(FilePath(fileURI: "https://example.com/a.mid") == nil)
        #expect(FilePath(fileURI: "file:///a%2") == nil)
        #expect(FilePath(fileURI: "file:///a%00b") == nil)
    }
}
