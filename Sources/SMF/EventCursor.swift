/// Reads the pieces of MIDI that XMI, HMP and HMI keep as a MIDI file has them: data bytes,
/// variable-length quantities, system exclusive and meta events. Each gives nil, and reads
/// nothing it can be blamed for, where the events' bytes end first.
struct EventCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let end: Int
    private(set) var offset: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ events: Range<Int>) {
        self.bytes = bytes
        end = events.upperBound
        offset = events.lowerBound
    }

    var isAtEnd: Bool { offset >= end }

    /// The next byte, not read: nil at the end.
    var next: UInt8? { isAtEnd ? nil : bytes[offset] }

    mutating func skip(_ count: Int) {
        offset = min(end, offset + count)
    }

    /// The next byte, read.
    mutating func byte() -> UInt8? {
        guard let next else { return nil }
        offset += 1
        return next
    }

    /// `count` data bytes, their top bit cleared.
    mutating func data(_ count: Int) -> [UInt8]? {
        guard offset + count <= end else { return nil }
        defer { offset += count }
        return (0..<count).map { bytes[offset + $0] & 0x7F }
    }

    /// A MIDI variable-length quantity: 7 bits a byte, highest first, every byte but the last
    /// with its top bit set; 4 bytes at most.
    mutating func quantity() -> Int? {
        var value = 0
        for _ in 0..<4 {
            guard let byte = byte() else { return nil }
            value = value << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }

    /// What follows a system exclusive status (F0 or F7): its length, and as many bytes.
    mutating func systemExclusive() -> [UInt8]? {
        guard let length = quantity(), offset + length <= end else { return nil }
        defer { offset += length }
        return Array(bytes[offset..<offset + length])
    }

    /// What follows a meta event's FF: its type, its length and as many bytes.
    mutating func meta() -> (type: UInt8, data: Slice<UnsafeBufferPointer<UInt8>>)? {
        guard let type = byte(), let length = quantity(), offset + length <= end else { return nil }
        defer { offset += length }
        return (type, bytes[offset..<offset + length])
    }
}
