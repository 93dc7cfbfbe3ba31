import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Thumbnails

@Suite("PNG files")
struct PNGFileTests {
    static func image() -> RGBImage {
        var image = RGBImage(width: 40, height: 30, filledWith: RGB(red: 10, green: 20, blue: 30))
        image.fill(columns: 5..<15, rows: 10..<12, with: RGB(red: 250, green: 0, blue: 128))
        return image
    }

    static func bigEndian(_ bytes: some Collection<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    @Test func encodesAnRGBImageWithItsSize() throws {
        let png = try PNGFile.encode(Self.image(), for: "test.png")
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // The IHDR chunk comes first: width, height, bit depth 8, colour type 2 (RGB), no interlace.
        #expect(String(decoding: png[12..<16], as: UTF8.self) == "IHDR")
        #expect(Self.bigEndian(png[16..<20]) == 40 && Self.bigEndian(png[20..<24]) == 30)
        #expect(png[24] == 8 && png[25] == 2 && png[28] == 0)
        #expect(String(decoding: png.suffix(8).prefix(4), as: UTF8.self) == "IEND")
    }

    @Test func writesTheFileWholeAndNothingElse() throws {
        let folder = try TemporaryFolder()
        let path = folder.filePath("roll.png")
        try Data("an older file".utf8).write(to: URL(fileURLWithPath: path.string))
        try PNGFile.write(Self.image(), to: path)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path.string))) == (try PNGFile.encode(Self.image(), for: path)))
        #expect(try folder.contents() == ["roll.png"])
    }

    @Test func anUnwritablePlaceIsAnErrorNamingTheFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.filePath("missing/roll.png")
        #expect {
            try PNGFile.write(Self.image(), to: path)
        } throws: { error in
            "\(error)".hasPrefix("\(path.text): cannot write: ")
        }
        #expect(try folder.contents() == [])
    }
}
