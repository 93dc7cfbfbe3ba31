/// Gathers a system exclusive message that a file splits into an `F0` packet and `F7`
/// continuations, until the packet that ends with `F7`.
///
/// An `F0` packet starts a message; `F7` packets continue one that has not ended yet, and are
/// otherwise escapes of raw bytes a synthesizer ignores. The buffer is reserved up front, so
/// gathering allocates nothing: the sequencer does it on the audio thread.
struct SystemExclusiveAssembler {
    /// The longest message kept; one that fills the whole buffer is not a real device's, and is dropped.
    static let capacity = 1 << 16

    private var bytes: [UInt8]

    init() {
        bytes = []
        bytes.reserveCapacity(Self.capacity)
    }

    /// Adds a packet (its bytes after the status and length); once the message is complete, hands
    /// it to `deliver`, without its `F0` and `F7`.
    mutating func add(status: UInt8, packet: ArraySlice<UInt8>, deliver: (UnsafeBufferPointer<UInt8>) -> Void) {
        if status == 0xF0 {
            bytes.removeAll(keepingCapacity: true)
        } else if bytes.isEmpty {
            return
        }
        bytes.append(contentsOf: packet.prefix(bytes.capacity - bytes.count))
        guard bytes.last == 0xF7 else {
            if bytes.count == bytes.capacity { bytes.removeAll(keepingCapacity: true) }
            return
        }
        bytes.withUnsafeBufferPointer { deliver(UnsafeBufferPointer(rebasing: $0.dropLast())) }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Forgets a message begun and not ended (after a seek, its continuation is not coming).
    mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
    }
}
