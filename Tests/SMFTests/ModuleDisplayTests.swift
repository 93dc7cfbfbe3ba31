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
        picture.write(bytes, at: 0, layout: .soundCanvas)
        let on = (0..<16).flatMap { row in (0..<16).filter { picture.isOn(row: row, column: $0) }.map { [row, $0] } }
        #expect(on == [[0, 0], [0, 4], [3, 5], [7, 14], [15, 15]])
        #expect(picture.lines[0] == "#...#...........")
        #expect(DotPicture(lines: picture.lines) == picture)
        // A later write changes only its bytes.
        picture.write([0x00], at: 0, layout: .soundCanvas)
        #expect(picture.lines[0] == "................" && picture.isOn(row: 15, column: 15))
        #expect(picture.halfBlockLines[7] == "               ▄")
    }

    /// An XG parameter change to an MU's bitmap (`4C 07 00 00`) for device number `device`, without F0 and F7.
    static func xgBitmap(_ data: [UInt8], device: UInt8 = 0) -> [UInt8] {
        [0x43, 0x10 | device, 0x4C, 0x07, 0x00, 0x00] + data
    }

    /// The dots on in `picture`, as [row, column] pairs from the top left.
    static func dotsOn(_ picture: DotPicture) -> [[Int]] {
        (0..<16).flatMap { row in (0..<16).filter { picture.isOn(row: row, column: $0) }.map { [row, $0] } }
    }

    @Test("an MU's bitmap: three groups of 16 rows, seven columns a byte with the leftmost in bit 6, the third columns 15-16 in bits 6 and 5")
    func xgBitmapLayout() {
        // The diagonal from the top left: rows 1-7 in the first group, 8-14 in the second, 15-16 in the third.
        let steps: [UInt8] = [0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01]
        let diagonal =
            steps + [UInt8](repeating: 0, count: 9)
            + [UInt8](repeating: 0, count: 7) + steps + [0, 0]
            + [UInt8](repeating: 0, count: 14) + [0x40, 0x20]
        let picture = DotPicture(diagonal, layout: .xg)
        #expect(Self.dotsOn(picture) == (0..<16).map { [$0, $0] })
        #expect(picture.lines[0] == "#..............." && picture.lines[15] == "...............#")
        // The right edge: every row's columns 15 and 16 on; the third group's five low bits draw nothing.
        let edge = DotPicture([UInt8](repeating: 0, count: 32) + [UInt8](repeating: 0x60, count: 15) + [0x7F], layout: .xg)
        #expect(edge.lines.allSatisfy { $0 == "..............##" }, "\(edge.lines)")
        // A whole row: 7 + 7 + 2 columns.
        let full = DotPicture([0x7F] + [UInt8](repeating: 0, count: 15) + [0x7F] + [UInt8](repeating: 0, count: 15) + [0x60], layout: .xg)
        #expect(full.lines[0] == "################" && full.lines[1] == "................")
    }

    @Test("an MU's bitmap as the VL70-m owner's manual's Bitmap Window example encodes its 16 rows in 48 bytes")
    func xgBitmapOfTheManualsExample() {
        let bytes: [UInt8] = [
            0x01, 0x0E, 0x30, 0x40, 0x00, 0x01, 0x07, 0x09, 0x13, 0x22, 0x43, 0x23, 0x13, 0x09, 0x07, 0x01,
            0x70, 0x0C, 0x03, 0x00, 0x00, 0x70, 0x7C, 0x72, 0x79, 0x48, 0x48, 0x48, 0x79, 0x72, 0x7C, 0x70,
            0x00, 0x00, 0x00, 0x40, 0x20, 0x00, 0x00, 0x00, 0x00, 0x40, 0x20, 0x40, 0x00, 0x00, 0x00, 0x00,
        ]
        let design = [
            "0000001111000000", "0001110000110000", "0110000000001100", "1000000000000010", "0000000000000001", "0000001111000000",
            "0000111111110000", "0001001111001000", "0010011111100100", "0100010100100010", "1000011100100001", "0100011100100010",
            "0010011111100100", "0001001111001000", "0000111111110000", "0000001111000000",
        ]
        #expect(DotPicture(bytes, layout: .xg).lines == design.map { String($0.map { $0 == "1" ? "#" : "." }) })
    }

    @Test("an XG bitmap message for any device number, without a checksum; at another address, or short of 48 bytes, it is nothing")
    func xgBitmapMessage() {
        let data = (0..<48).map { UInt8($0) }
        #expect(ModuleDisplayMessage(systemExclusive: Self.xgBitmap(data, device: 3)) == .bitmap(data))
        #expect(ModuleDisplayMessage(systemExclusive: Self.xgBitmap(data + [0x7F])) == .bitmap(data), "bytes past the 48th are ignored")
        #expect(ModuleDisplayMessage(systemExclusive: Self.xgBitmap(Array(data.prefix(47)))) == nil, "one byte short")
        #expect(ModuleDisplayMessage(systemExclusive: [0x43, 0x10, 0x4C, 0x07, 0x00, 0x10] + data) == nil, "not the bitmap's address")
        #expect(ModuleDisplayMessage(systemExclusive: [0x43, 0x00, 0x4C, 0x07, 0x00, 0x00] + data) == nil, "a bulk dump, not a parameter change")
    }

    @Test("the screen after an MU's bitmap is that picture, the MU's; the Sound Canvas's picture is drawn on where it was")
    func bitmapBesideTheSoundCanvasPicture() {
        var screen = ModuleDisplay()
        let dots = screen.show(.dots(offset: 0, [0x10]))
        #expect(dots == .picture(DotPicture([0x10], layout: .soundCanvas), .soundCanvas))
        let bitmap = [0x7F] + [UInt8](repeating: 0, count: 47)
        #expect(screen.show(.bitmap(bitmap)) == .picture(DotPicture(bitmap, layout: .xg), .xg))
        guard case .picture(let picture, .soundCanvas) = screen.show(.dots(offset: 1, [0x10])) else {
            Issue.record("Sound Canvas dots did not give its picture")
            return
        }
        #expect(Self.dotsOn(picture) == [[0, 0], [1, 0]])
    }

    @Test(
        "a Sound Canvas text longer than its 16 letters scrolls a letter every quarter second, then stands whole; a short one, or an MU's, stands still"
    )
    func scrollingLetters() {
        let long = ScrollingLetters("Welcome to the Sound Canvas!", module: .soundCanvas)
        #expect(long.shown(secondsAfterSent: 0) == "Welcome to the S")
        #expect(long.shown(secondsAfterSent: 1) == "ome to the Sound", "four letters on, a second later")
        #expect(long.shown(secondsAfterSent: 3) == "he Sound Canvas!", "its last 16 letters")
        #expect(long.scrollSeconds == 3.25)
        #expect(long.shown(secondsAfterSent: 3.25) == "Welcome to the Sound Canvas!", "its end has passed: the whole text")
        let short = ScrollingLetters("Hello GS", module: .soundCanvas)
        #expect(short.shown(secondsAfterSent: 0) == "Hello GS" && short.shown(secondsAfterSent: 1) == "Hello GS" && short.scrollSeconds == 0)
        let xg = ScrollingLetters("An MU shows these 32 letters too", module: .xg)
        #expect(xg.shown(secondsAfterSent: 0) == "An MU shows these 32 letters too" && xg.shown(secondsAfterSent: 1) == xg.text)
    }
}
