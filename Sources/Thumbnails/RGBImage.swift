/// An 8-bit red, green and blue colour.
public struct RGB: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `0xRRGGBB`.
    init(_ hex: UInt32) {
        self.init(red: UInt8(hex >> 16 & 0xFF), green: UInt8(hex >> 8 & 0xFF), blue: UInt8(hex & 0xFF))
    }
}

/// Pixels in rows from the top, three bytes each (red, green, blue): the
/// layout libpng's `PNG_FORMAT_RGB` takes.
public struct RGBImage: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var bytes: [UInt8]

    public init(width: Int, height: Int, filledWith colour: RGB) {
        precondition(width >= 1 && height >= 1, "an image needs at least one pixel")
        self.width = width
        self.height = height
        bytes = [UInt8](repeating: 0, count: width * height * 3)
        fill(columns: 0..<width, rows: 0..<height, with: colour)
    }

    public subscript(x: Int, y: Int) -> RGB {
        let offset = (y * width + x) * 3
        return RGB(red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2])
    }

    /// Paints a rectangle; the parts outside the image are left out.
    public mutating func fill(columns: Range<Int>, rows: Range<Int>, with colour: RGB) {
        let columns = columns.clamped(to: 0..<width)
        let rows = rows.clamped(to: 0..<height)
        bytes.withUnsafeMutableBufferPointer { bytes in
            for y in rows {
                var offset = (y * width + columns.lowerBound) * 3
                for _ in columns {
                    bytes[offset] = colour.red
                    bytes[offset + 1] = colour.green
                    bytes[offset + 2] = colour.blue
                    offset += 3
                }
            }
        }
    }
}
