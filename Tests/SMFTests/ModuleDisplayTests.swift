import Testing

@testable import SMF

/// What songs write on a Sound Canvas's or an MU's screen, decoded from their system exclusive.
struct ModuleDisplayTests {
    /// A Roland data set to the Sound Canvas's display (model 45), its checksum made, without F0 and F7.
    static func roland(_ address: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let body = address + data
        return [0x41, 0x10, 0x45, 0x12] + body + [UInt8((128 - body.reduce(0) { $0 + Int($1) } % 128) % 128)]
    }

    @Test("Sound Canvas letters, and dot data at its offset; a damaged checksum, another model or address, is nothing")
    func roland() {
        #expect(
            ModuleDisplayMessage(systemExclusive: Self.roland([0x10, 0x00, 0x00], Array("Hello GS".utf8)))
                == .text(Array("Hello GS".utf8), .soundCanvas))
        #expect(ModuleDisplayMessage(systemExclusive: Self.roland([0x10, 0x01, 0x10], [0x1F, 0x01])) == .dots(offset: 16, [0x1F, 0x01]))
        var damaged = Self.roland([0x10, 0x00, 0x00], Array("Hello".utf8))
        damaged[damaged.count - 1] ^= 1
        #expect(ModuleDisplayMessage(systemExclusive: damaged) == nil)
        #expect(ModuleDisplayMessage(systemExclusive: [0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41]) == nil, "a GS reset")
        #expect(ModuleDisplayMessage(systemExclusive: Self.roland([0x10, 0x01, 0x40], [0x1F])) == nil, "past the picture's 64 bytes")
    }

    @Test("XG display letters")
    func xg() {
        #expect(ModuleDisplayMessage(systemExclusive: [0x43, 0x10, 0x4C, 0x06, 0x00, 0x00] + Array("MU80".utf8)) == .text(Array("MU80".utf8), .xg))
        #expect(ModuleDisplayMessage(systemExclusive: [0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00]) == nil, "XG System On")
    }

    @Test("dot data: four groups of 16 rows, five columns a byte with the leftmost in bit 4, the last group column 15 alone")
    func dotLayout() {
        var picture = DotPicture()
        var bytes = [UInt8](repeating: 0, count: 64)
        bytes[0] = 0x11 // row 0: columns 0 and 4
        bytes[16 + 3] = 0x10 // row 3: column 5
        bytes[32 + 7] = 0x01 // row 7: column 14
        bytes[48 + 15] = 0x10 // row 15: column 15
        picture.write(bytes, at: 0)
        let on = (0..<16).flatMap { row in (0..<16).filter { picture.isOn(row: row, column: $0) }.map { [row, $0] } }
        #expect(on == [[0, 0], [0, 4], [3, 5], [7, 14], [15, 15]])
        #expect(picture.lines[0] == "#...#...........")
        #expect(DotPicture(lines: picture.lines) == picture)
        // A later write changes only its bytes.
        picture.write([0x00], at: 0)
        #expect(picture.lines[0] == "................" && picture.isOn(row: 15, column: 15))
        #expect(picture.halfBlockLines[7] == "               ▄")
    }
}
