/// Whatever takes MIDI messages: the synthesizer, or in tests a recorder that counts and checks
/// what a seek sends.
public protocol MIDIReceiver {
    /// A channel message; `channel` is 0–63 (port × 16 + channel).
    func send(status: UInt8, channel: Int, data1: UInt8, data2: UInt8)
    /// A complete system exclusive message, without its `F0` and `F7`.
    func sendSystemExclusive(_ message: UnsafeBufferPointer<UInt8>)
}

extension Synthesizer: MIDIReceiver {}
