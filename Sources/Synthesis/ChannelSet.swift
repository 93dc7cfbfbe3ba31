/// A set of the 16 MIDI channels, as users number them (1–16). A channel of a song with several
/// MIDI ports stands for that channel on every port.
public struct ChannelSet: Hashable, Sendable, CustomStringConvertible {
    /// Bit c for channel c + 1.
    public private(set) var bits: UInt16

    public static let all = ChannelSet(bits: 0xFFFF)

    public init(bits: UInt16 = 0) {
        self.bits = bits
    }

    /// From channel numbers 1–16; `nil` if one is out of that range.
    public init?(numbers: some Sequence<Int>) {
        var bits: UInt16 = 0
        for number in numbers {
            guard (1...16).contains(number) else { return nil }
            bits |= 1 << UInt16(number - 1)
        }
        self.bits = bits
    }

    public var isEmpty: Bool { bits == 0 }

    /// `channel` is 0–15.
    public func contains(_ channel: Int) -> Bool { bits & (1 << UInt16(channel & 15)) != 0 }

    public mutating func toggle(_ channel: Int) { bits ^= 1 << UInt16(channel & 15) }

    public mutating func remove(_ channel: Int) { bits &= ~(1 << UInt16(channel & 15)) }

    /// The channels as users number them, comma-separated: "1,3,10".
    public var description: String {
        (0..<16).filter(contains).map { String($0 + 1) }.joined(separator: ",")
    }
}
