import Files
import Foundation
import SystemPackage
import Testing

/// How a path's bytes are shown: UTF-8 as it is, Shift-JIS decoded, anything else escaped.
struct FilePathTextTests {
    @Test func utf8NamesShowAsTheyAre() {
        #expect(FilePath("/home/zoë/Music/ショパン/Ballade.mid").text == "/home/zoë/Music/ショパン/Ballade.mid")
        #expect(FilePath("relative/a.mid").text == "relative/a.mid")
    }

    @Test func shiftJISNamesShowDecoded() {
        let path = FilePath(
            bytes: Array("/m/".utf8) + [0x83, 0x56, 0x83, 0x87, 0x83, 0x70, 0x83, 0x93] + Array("/".utf8)
                + [0x96, 0xE9, 0x91, 0x7A, 0x8B, 0xC8, 0x20, 0x91, 0xE6, 0x82, 0x51, 0x94, 0xD4] + Array(".mid".utf8))
        #expect(path.text == "/m/ショパン/夜想曲 第２番.mid")
        #expect(!path.isValidUTF8)
    }

    @Test func otherBytesShowEscaped() {
        // A lone continuation byte and a truncated sequence: neither UTF-8 nor Shift-JIS.
        let path = FilePath(bytes: Array("/m/Caf".utf8) + [0xE9] + Array(" ".utf8) + [0x80, 0xFF] + Array(".mid".utf8))
        #expect(path.text == "/m/Caf\\xE9 \\x80\\xFF.mid")
    }

    @Test("the name without its extension, as shown: what a song without a title is called")
    func stemText() {
        #expect(FilePath("/m/ショパン/Ballade No.1.mid").stemText == "Ballade No.1")
        #expect(FilePath("song").stemText == "song")
        #expect(FilePath("/m/.mid").stemText == ".mid", "a hidden file's dot is no extension")
        let shiftJIS = FilePath(bytes: Array("/m/".utf8) + [0x96, 0xE9, 0x91, 0x7A, 0x8B, 0xC8] + Array(".rmi".utf8))
        #expect(shiftJIS.stemText == "夜想曲")
    }

    @Test func bytesGoBackAsTheyCame() {
        let bytes: [UInt8] = Array("/m/".utf8) + [0x83, 0x65, 0x83, 0x58, 0x83, 0x67, 0xFF]
        #expect(FilePath(bytes: bytes).bytes == bytes)
    }

    @Test("bytes in one piece or not (an array, Data, a slice, a lazy collection) make the same path, ending at a NUL")
    func bytesOfAnyCollection() {
        let bytes: [UInt8] = Array("/m/ショパン/".utf8) + [0x83, 0x65, 0xFF] + Array(".mid".utf8)
        let cut = bytes + [0] + Array("rest".utf8)
        for path in [
            FilePath(bytes: cut), FilePath(bytes: Data(cut)), FilePath(bytes: ([9] + cut)[1...]), FilePath(bytes: cut.lazy.map { $0 }),
            FilePath(bytes: Data(cut)[0..<cut.count]),
        ] {
            #expect(path.bytes == bytes)
        }
        #expect(FilePath(bytes: Data()).bytes.isEmpty && FilePath(bytes: [0, 1]).bytes.isEmpty)
    }
}
