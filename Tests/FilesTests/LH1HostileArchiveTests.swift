import Files
import SystemPackage
import TestSupport
import Testing

/// LZH archives of `-lh1-` members cut at every byte and changed at random: whatever liblhasa is
/// given (never a byte past a member's end), reading ends, without a crash, with the members
/// before the damage read whole and the damage said at most once.
struct LH1HostileArchiveTests {
    static let members = [
        LZHWriter.Member(path: Array("one.mid".utf8), data: ArchiveTests.song + Array(String(repeating: "do re mi ", count: 40).utf8), method: .lh1),
        LZHWriter.Member(path: Array("two.mid".utf8), data: LH1EncoderTests.noise(300, seed: 11), method: .lh1),
        LZHWriter.Member(path: Array("three.mid".utf8), data: ArchiveTests.song),
    ]

    static func archive() -> [UInt8] {
        var writer = LZHWriter(level: .level1)
        members.forEach { writer.add($0) }
        return writer.encode()
    }

    @Test(
        "cut at every byte: the members wholly before the cut read to the byte, the cut said at most once, or the archive refused",
        .timeLimit(.minutes(1)))
    func everyCut() throws {
        let folder = try TemporaryFolder()
        let whole = Self.archive()
        var kept = [Int](repeating: 0, count: Self.members.count + 1)
        for length in 8..<whole.count {
            let path = try folder.create("cut\(length).lzh", Array(whole.prefix(length)))
            guard let archive = try? Archive.open(FilePath(path), memberLimit: 1 << 20) else { continue }
            let names = archive.members.map(\.name.text)
            #expect(names == Self.members.prefix(names.count).map { String(decoding: $0.path, as: UTF8.self) }, "cut at \(length): \(names)")
            for (member, original) in zip(archive.members, Self.members) {
                #expect(archive.data(of: member.name) == original.data, "cut at \(length): \(member.name.text) read wrong")
            }
            #expect(archive.warnings.count <= 1, "cut at \(length): \(archive.warnings)")
            kept[names.count] += 1
        }
        // Each count of whole members was seen: the cuts fell inside every member's bytes.
        #expect(kept.dropLast().allSatisfy { $0 > 0 }, "\(kept)")
    }

    @Test(
        "500 copies with one to three bytes changed at random: each reads, or is refused, in bounds; damage to -lh1- bytes is said as such",
        .timeLimit(.minutes(1)))
    func randomChanges() throws {
        let folder = try TemporaryFolder()
        let whole = Self.archive()
        let random = LH1EncoderTests.noise(500 * 3 * 3, seed: 99)
        var notDecoded = 0
        for copy in 0..<500 {
            var bytes = whole
            let draws = random[(copy * 9)..<(copy * 9 + 9)].map(Int.init)
            for change in 0..<(1 + draws[0] % 3) {
                let position = (draws[1 + change * 2] << 8 | draws[2 + change * 2]) % bytes.count
                bytes[position] ^= UInt8(1 + draws[change] % 255)
            }
            let path = try folder.create("changed\(copy).lzh", bytes)
            guard let archive = try? Archive.open(FilePath(path), memberLimit: 1 << 20) else { continue }
            #expect(archive.members.count <= Self.members.count, "copy \(copy): \(archive.members)")
            #expect(archive.members.allSatisfy { archive.data(of: $0.name)?.count ?? 0 <= 1 << 20 })
            notDecoded += archive.warnings.filter { if case .notDecoded = $0 { true } else { false } }.count
        }
        #expect(notDecoded > 0, "no change reached -lh1- bytes")
    }
}
