@testable import Synthesis

/// Takes the place of the synthesizer to see what a seek plan sends.
final class MessageRecorder: MIDIReceiver {
    struct ChannelMessage: Equatable, CustomStringConvertible {
        var status: UInt8
        var channel: Int
        var data1: UInt8
        var data2: UInt8

        var description: String { "\(String(status, radix: 16)) ch\(channel) \(data1) \(data2)" }
    }

    private(set) var channelMessages: [ChannelMessage] = []
    private(set) var systemExclusiveMessages: [[UInt8]] = []

    var count: Int { channelMessages.count + systemExclusiveMessages.count }

    /// The notes struck, as (channel, key, velocity), in order.
    var strikes: [[Int]] {
        channelMessages.filter { $0.status == 0x90 && $0.data2 != 0 }.map { [$0.channel, Int($0.data1), Int($0.data2)] }
    }

    /// The keys let go (note off, or note on at velocity 0), as (channel, key).
    var releases: [[Int]] {
        channelMessages.filter { $0.status == 0x80 || $0.status == 0x90 && $0.data2 == 0 }.map { [$0.channel, Int($0.data1)] }
    }

    func send(status: UInt8, channel: Int, data1: UInt8, data2: UInt8) {
        channelMessages.append(ChannelMessage(status: status & 0xF0, channel: channel, data1: data1, data2: data2))
    }

    func sendSystemExclusive(_ message: UnsafeBufferPointer<UInt8>) {
        systemExclusiveMessages.append(Array(message))
    }

    /// What following `plan` sends.
    static func messages(of plan: SeekPlan) -> MessageRecorder {
        let recorder = MessageRecorder()
        plan.send(to: recorder)
        return recorder
    }
}
