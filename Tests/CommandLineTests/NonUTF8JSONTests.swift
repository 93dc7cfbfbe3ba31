import Foundation
import TestSupport
import Testing

/// JSON holds text only: a path whose bytes are not UTF-8 is given as text for people (`path`)
/// and as its bytes in base64 (`pathBytes`), which open it; a UTF-8 path has no `pathBytes`.
struct NonUTF8JSONTests {
    /// The `path` and decoded `pathBytes` of each object in `objects`.
    static func paths(_ objects: [[String: Any]]) -> [(text: String, bytes: [UInt8]?)] {
        objects.map { object in
            ((object["path"] as? String) ?? "", (object["pathBytes"] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init))
        }
    }

    @Test("info --json and search --json give a Shift-JIS path's bytes beside its text")
    func bytesOfPathsThatAreNotUTF8() throws {
        let sandbox = try Sandbox()
        try sandbox.write("Library/plain.mid", Songs.heldNote(64, seconds: 2))
        let piece = try NonUTF8Names.makeShiftJISPiece(in: sandbox.path("Library"), note: 60, seconds: 2)

        let info = try sandbox.run(["info", "--json", "Library"])
        #expect(info.succeeded, "\(info)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        let files = Self.paths(try #require(document["files"] as? [[String: Any]]))
        #expect(files.map(\.text) == ["Library/ショパン/夜想曲.mid", "Library/plain.mid"], "\(info)")
        #expect(files.map(\.bytes) == [Array("Library/".utf8) + piece.relative, nil], "\(info)")

        let search = try sandbox.run(["search", "--json", "--library", "Library", "--longer", "0"])
        #expect(search.succeeded, "\(search)")
        let results = Self.paths(try #require(try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [[String: Any]]))
        #expect(results.map(\.bytes) == [piece.absolute, nil], "\(search)")
        #expect(results.first?.text.hasSuffix("ショパン/夜想曲.mid") == true, "\(search)")
    }
}
