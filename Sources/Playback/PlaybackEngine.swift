import Synchronization
import Synthesis

/// The player's audio engine: the audio thread renders whatever song is loaded, and takes commands
/// from the interface without ever waiting for it.
///
/// Two rings join the threads (``SingleProducerRing``): commands go to the audio thread through
/// one, and every song and seek plan the audio thread is done with comes back through the other,
/// for the interface to let go of; no count decides when something may be freed. The audio
/// thread's state (``EngineAudioSide``) is reached from `render` alone; what it says of itself,
/// the interface reads as one look (``state``).
final class PlaybackEngine: Sendable {
    /// How long the sound fades out before a seek or a skip that is not flushed: cutting voices
    /// mid-waveform clicks; 256 frames (about 5 ms) do not.
    static let fadeFrames = 256
    /// Commands the ring holds: far more than the interface posts between two buffers. More wait
    /// on the interface's side (`Mailbox.waiting`) until there is room.
    static let commandCapacity = 256
    /// Songs and plans handed over and not yet back: the interface hands over no more, so that the
    /// audio thread always has room to give them back.
    static let retiredCapacity = 1024

    /// The interface's side of the rings: what it posted that did not fit yet, and how many
    /// objects it has handed over that have not come back.
    private struct Mailbox {
        var waiting: [EngineCommand] = []
        var handedObjects = 0
    }

    private let commands = SingleProducerRing<EngineCommand>(capacity: commandCapacity)
    private let retired = SingleProducerRing<RetiredObject>(capacity: retiredCapacity)
    private let published = PublishedEngineState()
    /// Taken by the interface's calls alone: by one thread, never waiting.
    private let mailbox = Mutex(Mailbox())
    /// Taken by `render` alone: it never waits either; it makes the compiler check that the audio
    /// side is reached from one thread at a time.
    private let audioSide: Mutex<EngineAudioSide>

    init(tailLimitSeconds: Double, sampleRate: Double, limitsPeaks: Bool) {
        audioSide = Mutex(
            EngineAudioSide(
                commands: commands, retired: retired, published: published, tailLimitSeconds: tailLimitSeconds,
                sampleRate: sampleRate, limitsPeaks: limitsPeaks))
        mailbox.withLock { $0.waiting.reserveCapacity(64) }
    }

    /// Everything the engine publishes, from one moment.
    var state: EngineState { published.load() }

    /// Where the engine is (part of ``state``).
    var position: EnginePosition { state.position }

    /// Called by the interface: hands `command` to the audio thread, which takes it at its next
    /// buffer (or later, if the rings are full: it waits on this side, in order).
    func post(_ command: EngineCommand) {
        mailbox.withLock { mailbox in
            mailbox.waiting.append(command)
            deliver(&mailbox)
        }
    }

    /// Called by the interface, regularly: lets go of what the audio thread is done with, and
    /// passes on commands that waited for room.
    func collectRetired() {
        mailbox.withLock { deliver(&$0) }
    }

    /// How many songs and plans the audio thread holds, or has given back and the interface has
    /// not collected yet.
    var handedObjects: Int { mailbox.withLock { $0.handedObjects } }

    private func deliver(_ mailbox: inout Mailbox) {
        while retired.pop() != nil { mailbox.handedObjects -= 1 }
        var delivered = 0
        for command in mailbox.waiting {
            guard mailbox.handedObjects + command.handedObjects <= Self.retiredCapacity, commands.push(command) else { break }
            mailbox.handedObjects += command.handedObjects
            delivered += 1
        }
        mailbox.waiting.removeFirst(delivered)
    }

    /// Fills a buffer: the render path. No allocation, no I/O, no waiting (but for the parts of a
    /// split song, rendered at the same time on other cores).
    func render(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        let mark = AudioThread.Mark()
        // The sink's buffer crosses into the lock as its address: it is written by this thread
        // alone for the length of the call, which the lock's region check cannot see (pointers are
        // not Sendable).
        let address = Int(bitPattern: buffer)
        audioSide.withLock { $0.render(UnsafeMutablePointer(bitPattern: address)!, frames: frames) }
        mark.remove()
    }
}
