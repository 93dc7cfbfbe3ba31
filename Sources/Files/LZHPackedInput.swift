/// One LZH member's compressed bytes as liblhasa's decoder asks for them, one to four at a time:
/// served from a block read ahead from the archive (its file at an offset, or its bytes in memory),
/// never past the member's end, whatever the decoder makes of damaged data.
final class LZHPackedInput {
    private let source: ArchiveSource
    private var offset: Int64
    private let end: Int64
    private var block: [UInt8] = []
    private var position = 0
    /// Whether the archive's file could not be read (or had shrunk) before the member's end.
    private(set) var failed = false
    private static let blockSize: Int64 = 64 * 1024

    init(_ source: ArchiveSource, from offset: Int64, count: Int64) {
        self.source = source
        self.offset = offset
        end = offset + count
    }

    /// Copies up to `count` of the next bytes to `buffer` and says how many: 0 at the member's end.
    func fill(_ buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        if position == block.count {
            guard offset < end, !failed else { return 0 }
            guard let next = source.bytes(upTo: Int(min(Self.blockSize, end - offset)), at: offset), !next.isEmpty else {
                failed = true
                return 0
            }
            (block, position) = (next, 0)
            offset += Int64(next.count)
        }
        let served = min(count, block.count - position)
        block.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + position, byteCount: served) }
        position += served
        return served
    }
}
