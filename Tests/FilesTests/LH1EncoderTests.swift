import Files
import Foundation
import TestSupport
import Testing

/// TestSupport's `-lh1-` encoder, which the archive tests rely on, checked by a reader that is not
/// smfplay's: Debian's lhasa (`lha`), which tests each member's CRC-16 and unpacks it. The data
/// take every path of the format: long copies, copies overlapping what they make, bytes no copy
/// can stand for (the adaptive tree then rebuilt, past 32,768 codes), copies from the far end of
/// the window.
struct LH1EncoderTests {
    static let lha = "/usr/bin/lha"

    /// Bytes from a fixed seed (xorshift): the same every run.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 32)
        }
    }

    static let members: [(name: String, data: [UInt8])] = [
        ("text.txt", Array(String(repeating: "LHarc 1.13c compressed this with LZHUF's tree. ", count: 300).utf8)),
        ("song.mid", ArchiveTests.song),
        ("zeros.bin", [UInt8](repeating: 0, count: 100_000)),
        ("noise.bin", noise(60_000, seed: 35)),
        // 4 KB of noise seen again 4,000 bytes later: copies from as far back as the window allows.
        (
            "far.bin",
            {
                let block = noise(4_000, seed: 7)
                return block + block + block
            }()
        ),
        ("one.bin", [0x41]),
    ]

    static func archive(_ method: LZHWriter.Method, level: LZHWriter.HeaderLevel = .level1) -> [UInt8] {
        var writer = LZHWriter(level: level)
        for member in members { writer.add(LZHWriter.Member(path: Array(member.name.utf8), data: member.data, method: method)) }
        return writer.encode()
    }

    static func lha(_ arguments: [String], in folder: TemporaryFolder) throws -> Command.Result {
        try Command(URL(fileURLWithPath: lha), arguments: arguments, workingDirectory: URL(fileURLWithPath: folder.path)).run()
    }

    @Test("lha tests (CRC-16) and unpacks every member the -lh1- encoder packed, byte for byte, and they are packed smaller")
    func lhaReadsWhatTheEncoderWrites() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.lha), "no \(Self.lha): Debian's lhasa is needed")
        let folder = try TemporaryFolder()
        let bytes = Self.archive(.lh1)
        _ = try folder.create("lh1.lzh", bytes)
        let tested = try Self.lha(["t", "lh1.lzh"], in: folder)
        #expect(tested.succeeded && tested.stdout.components(separatedBy: "- Tested").count - 1 == Self.members.count, "\(tested)")
        let unpacked = try Self.lha(["-xw=out", "lh1.lzh"], in: folder)
        #expect(unpacked.succeeded, "\(unpacked)")
        for member in Self.members {
            let data = FileManager.default.contents(atPath: folder.file("out/" + member.name)).map { Array($0) }
            #expect(data == member.data, "\(member.name) unpacks to \(data?.count ?? 0) bytes, not its \(member.data.count)")
        }
        #expect(bytes.count < Self.archive(.stored).count / 2, "packed in \(bytes.count) bytes")
        #expect(LH1Encoder.encode(Self.members[2].data).count < 5_000, "100,000 zeros packed in 60-byte copies")
    }

    @Test("lha tests a -lz5- member of bytes sent as themselves (level 0, where libarchive reads that method's headers)")
    func lhaReadsLZ5Literals() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.lha), "no \(Self.lha): Debian's lhasa is needed")
        let folder = try TemporaryFolder()
        _ = try folder.create("lz5.lzh", Self.archive(.lz5Literals, level: .level0))
        let tested = try Self.lha(["t", "lz5.lzh"], in: folder)
        #expect(tested.succeeded && tested.stdout.components(separatedBy: "- Tested").count - 1 == Self.members.count, "\(tested)")
    }

    @Test("the check can fail: lha says a -lh1- member whose bytes were changed fails its test")
    func lhaFindsDamage() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.lha), "no \(Self.lha): Debian's lhasa is needed")
        let folder = try TemporaryFolder()
        var writer = LZHWriter(level: .level1)
        var member = LZHWriter.Member(path: Array("text.txt".utf8), data: Self.members[0].data, method: .lh1)
        var packed = member.packed
        packed[packed.count / 2] ^= 0x10
        member.packedInstead = packed
        writer.add(member)
        _ = try folder.create("damaged.lzh", writer.encode())
        let tested = try Self.lha(["t", "damaged.lzh"], in: folder)
        #expect(!tested.succeeded, "\(tested)")
    }
}
