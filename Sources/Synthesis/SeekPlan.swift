/// A seek worked out ahead: where it goes, and the few messages that bring a reset synthesizer to
/// the state that playing the song up to there would have left it in.
///
/// Making a plan reads every event before the target, which takes time in proportion to the
/// song, so it is made away from the audio thread (``Sequencer/plan(seekingTo:chaseNotes:)``).
/// Following it (``Sequencer/seek(following:)``) sends at most a few messages per channel,
/// controller, parameter and key, however long the song: a bounded amount of work, fit for the
/// render path. A plan belongs to the sequencer that made it.
public struct SeekPlan: Sendable {
    /// One message to send.
    enum Message: Sendable, Equatable {
        /// A channel message; `channel` is 0–63.
        case channel(status: UInt8, channel: UInt8, data1: UInt8, data2: UInt8)
        /// A system exclusive message: `count` bytes of `systemExclusiveBytes` from `start`.
        case systemExclusive(start: Int32, count: Int32)
    }

    /// The frame the seek goes to.
    public let frame: Int64
    /// The sequencer that made the plan, the only one that may follow it.
    let sequencer: ObjectIdentifier
    /// The index of the first event at or after `frame`.
    let cursor: Int
    /// Each track's MIDI port at `frame`.
    let trackPorts: [Int]
    /// In the order they are sent.
    let messages: [Message]
    /// The system exclusive messages kept, one after another.
    let systemExclusiveBytes: [UInt8]

    /// The plan without its system exclusive messages: the state of the channels alone, which a
    /// synthesizer that plays on (not reset) can take without its voices being cut.
    var withoutSystemExclusive: SeekPlan {
        SeekPlan(
            frame: frame, sequencer: sequencer, cursor: cursor, trackPorts: trackPorts,
            messages: messages.filter { if case .channel = $0 { true } else { false } }, systemExclusiveBytes: [])
    }

    /// Sends the messages; of the notes struck again (and their pressure), those of the keys
    /// `playsKey(channel, key)` keeps. No allocation: this runs on the audio thread.
    func send(to receiver: some MIDIReceiver, playsKey: (_ channel: Int, _ key: UInt8) -> Bool = { _, _ in true }) {
        systemExclusiveBytes.withUnsafeBufferPointer { bytes in
            // By index: unoptimized, a `for`-`in` loop's iterator allocates (its element
            // accessor's frame), and the tests that check the audio thread run unoptimized builds.
            var index = 0
            while index < messages.count {
                let message = messages[index]
                index += 1
                switch message {
                case .channel(let status, let channel, let data1, let data2):
                    if status & 0xF0 <= 0xA0, !playsKey(Int(channel), data1) { continue }
                    receiver.send(status: status, channel: Int(channel), data1: data1, data2: data2)
                case .systemExclusive(let start, let count):
                    receiver.sendSystemExclusive(UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(start + count)]))
                }
            }
        }
    }
}
