/// A sound module's 16×16 dot picture: the Sound Canvas's dot display, or an MU's bitmap. Both
/// modules send it in groups of 16 bytes, one byte a row from the top, each group holding the next
/// columns from the left with the leftmost in the byte's highest bit used; they differ in how many
/// columns a byte holds (``Layout``).
public struct DotPicture: Hashable, Sendable {
    /// How a module packs its dots into bytes.
    public enum Layout: Hashable, Sendable {
        /// The Sound Canvas's 64 bytes: five columns a byte, the leftmost in bit 4 (columns 1–5,
        /// 6–10, 11–15, and column 16 alone in the fourth group).
        case soundCanvas
        /// An MU's 48 bytes: seven columns a byte, the leftmost in bit 6 (columns 1–7, 8–14, and
        /// columns 15–16 in bits 6 and 5 of the third group), as the MU80 data list's "Display Bitmap"
        /// (`4C 07 00 00`) and the VL70-m owner's manual's "Bitmap Window" lay it out.
        case xg

        /// How many columns one byte holds.
        var columnsPerByte: Int {
            switch self {
            case .soundCanvas: 5
            case .xg: 7
            }
        }

        /// How many bytes the whole picture takes: as many groups of 16 as it takes to cover 16 columns.
        public var byteCount: Int { 16 * ((16 + columnsPerByte - 1) / columnsPerByte) }
    }

    /// Row by row from the top, bit 15 the leftmost dot.
    public private(set) var rows: [UInt16] = Array(repeating: 0, count: 16)

    public init() {}

    /// The picture `bytes` draw in `layout`, from its first byte (bytes past the picture's are ignored).
    public init(_ bytes: some Collection<UInt8>, layout: Layout) {
        write(Array(bytes), at: 0, layout: layout)
    }

    /// The picture `lines` draw (16 lines of 16 characters, `#` on); nil for other text.
    public init?(lines: [String]) {
        guard lines.count == 16, lines.allSatisfy({ $0.count == 16 }) else { return nil }
        rows = lines.map { line in line.reduce(UInt16(0)) { $0 << 1 | ($1 == "#" ? 1 : 0) } }
    }

    /// Writes dot data from `offset` of the picture's bytes in `layout`, leaving the other dots as
    /// they were (the Sound Canvas changes its picture a part at a time); what lies past the last
    /// byte is ignored.
    public mutating func write(_ bytes: [UInt8], at offset: Int, layout: Layout) {
        let width = layout.columnsPerByte
        for (index, byte) in bytes.enumerated() where offset + index < layout.byteCount {
            let position = offset + index
            let row = position % 16
            let firstColumn = position / 16 * width
            for bit in 0..<min(width, 16 - firstColumn) {
                let mask = UInt16(1) << UInt16(15 - (firstColumn + bit))
                if byte & (1 << UInt8(width - 1 - bit)) != 0 { rows[row] |= mask } else { rows[row] &= ~mask }
            }
        }
    }

    public func isOn(row: Int, column: Int) -> Bool {
        rows[row] & (UInt16(1) << UInt16(15 - column)) != 0
    }

    /// The picture in text: a line a row, `#` for a dot that is on, `.` for one that is off.
    public var lines: [String] {
        rows.indices.map { row in String((0..<16).map { isOn(row: row, column: $0) ? "#" : "." }) }
    }

    /// The picture in half blocks: 8 lines of 16 characters, two rows in each (`▀`, `▄`, `█`).
    public var halfBlockLines: [String] {
        stride(from: 0, to: 16, by: 2).map { row in
            String(
                (0..<16).map { column -> Character in
                    switch (isOn(row: row, column: column), isOn(row: row + 1, column: column)) {
                    case (true, true): "█"
                    case (true, false): "▀"
                    case (false, true): "▄"
                    case (false, false): " "
                    }
                })
        }
    }
}
