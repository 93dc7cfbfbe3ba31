/// The Sound Canvas's 16×16 dot picture, as its 64 bytes of dot data lay it out: four groups of
/// 16 bytes, one byte a row, each holding five columns (the first group columns 0–4 … the fourth
/// column 15 alone), the leftmost in the byte's highest bit (bit 4).
public struct DotPicture: Hashable, Sendable {
    /// Row by row from the top, bit 15 the leftmost dot.
    public private(set) var rows: [UInt16] = Array(repeating: 0, count: 16)

    public init() {}

    /// The picture `lines` draw (16 lines of 16 characters, `#` on); nil for other text.
    public init?(lines: [String]) {
        guard lines.count == 16, lines.allSatisfy({ $0.count == 16 }) else { return nil }
        rows = lines.map { line in line.reduce(UInt16(0)) { $0 << 1 | ($1 == "#" ? 1 : 0) } }
    }

    /// Writes dot data from `offset` of the 64 bytes; what lies past the 64th is ignored.
    public mutating func write(_ bytes: [UInt8], at offset: Int) {
        for (index, byte) in bytes.enumerated() where offset + index < 64 {
            let position = offset + index
            let group = position / 16
            let row = position % 16
            let firstColumn = group * 5
            for bit in 0..<(group == 3 ? 1 : 5) {
                let column = firstColumn + bit
                let mask = UInt16(1) << UInt16(15 - column)
                if byte & (0x10 >> UInt8(bit)) != 0 { rows[row] |= mask } else { rows[row] &= ~mask }
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
