import AudioOutput
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sink against a real PulseAudio server of the test's own (a null sink, recorded from its
/// monitor): no sound card needed. The null sink and the recorder take 32-bit float at the
/// stream's rate, so samples arrive untouched and each frame's tag (right channel) says which
/// stream frame it was.
///
/// Serialized: each test has a server of its own, but a small machine running ten servers and
/// their recorders at once makes timing coarser than the bounds checked here.
@Suite(.serialized)
struct PulseAudioSinkTests {
    static let rate = 48_000
    /// The null sink's block while the test server's recorders (20 ms) are connected, in frames.
    static let sinkBlock = Int64(rate / 50)

    @Test func playsTheRenderedToneAtItsLengthAndPitch() throws {
        let server = try PulseAudioServer(sampleRate: Self.rate)
        let recording = try server.record()
        let tone = TaggedTone(sampleRate: Self.rate, stopFrame: Int64(1.5 * Double(Self.rate)))
        let sink = try makeSink(server, tone)
        try sink.resume()
        tone.waitUntilRendered(frames: tone.stopFrame)
        #expect(try sink.drain(timeout: .seconds(2)))
        sink.close()
        let audio = try recording.stop()

        let spans = audio.soundingSpans()
        try #require(spans.count == 1, "sounding spans: \(spans)")
        // The recorder may lose a little audio on a busy machine: a tolerance of 0.3 s.
        #expect(abs(Double(spans[0].count) / Double(Self.rate) - 1.5) < 0.3, "span: \(spans[0])")
        #expect(abs(audio.frequency(in: spans[0]) - TaggedTone.frequency) < 5)
    }

    @Test func pauseFallsSilentWithin100MillisecondsAndResumeGoesOn() throws {
        let server = try PulseAudioServer(sampleRate: Self.rate)
        let recording = try server.record()
        let tone = TaggedTone(sampleRate: Self.rate)
        let sink = try makeSink(server, tone)
        try sink.resume()
        Thread.sleep(forTimeInterval: 0.5)
        // The recording lags what the null sink has played (by parec's 20 ms and a little), so its
        // length now is at or before the frame playing: measured from it, a delay can only look
        // longer than it is.
        let recordedAtPause = recording.framesSoFar
        try sink.pause()
        #expect(sink.isPaused)
        Thread.sleep(forTimeInterval: 0.4)
        try sink.resume()
        Thread.sleep(forTimeInterval: 0.3)
        sink.close()
        let audio = try recording.stop()

        let spans = audio.soundingSpans()
        try #require(spans.count == 2, "sounding spans: \(spans)")
        // The bound: a key takes effect within 100 ms.
        let delay = Double(spans[0].upperBound - recordedAtPause) / Double(Self.rate)
        #expect(delay < 0.1, "silent \(delay) s after pause()")
        // Resuming goes on from where it stopped, to within two of the null sink's blocks (40 ms,
        // less than the 50 ms buffered): the server rewinds that coarsely what the sink had taken
        // when the stream corked or uncorked.
        let lastBefore = try #require(TaggedTone.frame(ofTag: audio.right(spans[0].upperBound - 1)))
        let firstAfter = try #require(TaggedTone.frame(ofTag: audio.right(spans[1].lowerBound)))
        #expect(abs(firstAfter - (lastBefore + 1)) <= 2 * Self.sinkBlock, "last before \(lastBefore), first after \(firstAfter)")
    }

    @Test func positionIsTheFrameBeingHeardNotTheLastWritten() throws {
        let server = try PulseAudioServer(sampleRate: Self.rate)
        let recording = try server.record()
        let tone = TaggedTone(sampleRate: Self.rate)
        // A long buffer, so that the frame heard and the frame written are far apart.
        let sink = try makeSink(server, tone, latency: .milliseconds(200))
        try sink.resume()
        Thread.sleep(forTimeInterval: 0.5)
        try sink.pause()
        // Paused, the stream stands still: its position can be compared with the recording.
        let position = sink.position
        Thread.sleep(forTimeInterval: 0.1)
        sink.close()
        let audio = try recording.stop()

        let spans = audio.soundingSpans()
        try #require(spans.count == 1, "sounding spans: \(spans)")
        let lastHeard = try #require(TaggedTone.frame(ofTag: audio.right(spans[0].upperBound - 1)))
        // Far from the last frame written: the latency lies between them.
        #expect(position.bufferedFrames > Int64(Self.rate / 10), "\(position)")
        #expect(position.latency > .milliseconds(100), "\(position)")
        // And the frame after the last heard, to within two of the null sink's blocks (40 ms):
        // the server rewinds that coarsely what the sink had taken when the stream corked.
        #expect(abs(position.heardFrame - (lastHeard + 1)) <= 2 * Self.sinkBlock, "\(position), last heard \(lastHeard)")
    }

    @Test func flushDropsTheBufferedAudio() throws {
        let server = try PulseAudioServer(sampleRate: Self.rate)
        let recording = try server.record()
        let tone = TaggedTone(sampleRate: Self.rate)
        // A long buffer, which without the flush would keep the tone going for half a second.
        let sink = try makeSink(server, tone, latency: .milliseconds(500))
        try sink.resume()
        Thread.sleep(forTimeInterval: 0.8)
        let recordedAtFlush = recording.framesSoFar
        var writtenAtFlush: Int64 = 0
        try sink.flush {
            tone.isSounding.store(false, ordering: .relaxed)
            writtenAtFlush = tone.renderedFrames
        }
        Thread.sleep(forTimeInterval: 0.3)
        let position = sink.position
        let underruns = sink.underrunCount
        sink.close()
        let audio = try recording.stop()

        let spans = audio.soundingSpans()
        try #require(spans.count == 1, "sounding spans: \(spans)")
        // The bound for a seek: within 100 ms, though half a second was buffered.
        let delay = Double(spans[0].upperBound - recordedAtFlush) / Double(Self.rate)
        #expect(delay < 0.1, "silent \(delay) s after flush()")
        let lastHeard = try #require(TaggedTone.frame(ofTag: audio.right(spans[0].upperBound - 1)))
        // What was rendered but not yet heard never was.
        #expect(writtenAtFlush - lastHeard > Int64(Self.rate / 10), "written \(writtenAtFlush), last heard \(lastHeard)")
        // The position went on from the flush, not from audio that was dropped.
        #expect(position.heardFrame >= writtenAtFlush, "\(position)")
        // The buffer a flush empties is refilled at once: no underrun to report.
        #expect(underruns == 0)
    }

    @Test func drainPlaysOutEverythingWrittenThenPauses() throws {
        let server = try PulseAudioServer(sampleRate: Self.rate)
        let recording = try server.record()
        let tone = TaggedTone(sampleRate: Self.rate)
        let sink = try makeSink(server, tone)
        try sink.resume()
        Thread.sleep(forTimeInterval: 0.3)
        let underrunsBefore = sink.underrunCount
        #expect(try sink.drain(timeout: .seconds(2)))
        let writtenAtDrain = tone.renderedFrames
        #expect(sink.isPaused)
        #expect(sink.position.heardFrame == writtenAtDrain)
        Thread.sleep(forTimeInterval: 0.1)
        // Nothing rendered while drained; rendering again once resumed.
        #expect(tone.renderedFrames == writtenAtDrain)
        try sink.resume()
        Thread.sleep(forTimeInterval: 0.1)
        #expect(tone.renderedFrames > writtenAtDrain)
        // The buffer running dry in a drain is no underrun.
        #expect(sink.underrunCount == underrunsBefore)
        sink.close()
        let audio = try recording.stop()

        let spans = audio.soundingSpans()
        try #require(spans.count == 2, "sounding spans: \(spans)")
        let lastHeard = try #require(TaggedTone.frame(ofTag: audio.right(spans[0].upperBound - 1)))
        #expect(lastHeard == writtenAtDrain - 1, "written \(writtenAtDrain) at the drain, last heard \(lastHeard)")
    }

    @Test func underrunsAreCounted() throws {
        let server = try PulseAudioServer(sampleRate: Self.rate)
        let tone = TaggedTone(sampleRate: Self.rate)
        // A render that stalls for 200 ms once, four times the 50 ms buffer.
        tone.stallAtFrame.store(Int64(Self.rate / 4), ordering: .relaxed)
        let sink = try makeSink(server, tone)
        try sink.resume()
        Thread.sleep(forTimeInterval: 0.8)
        #expect(sink.underrunCount >= 1)
        sink.close()
    }

    /// A process with CAP_SYS_NICE (root) may ask for a real-time policy, and so may one whose
    /// `RLIMIT_RTPRIO` allows it; anyone else is refused, and the sink says why.
    @Test func theRenderThreadRunsInRealTimeWhereThatIsAllowed() throws {
        let server = try PulseAudioServer(sampleRate: Self.rate)
        let tone = TaggedTone(sampleRate: Self.rate)
        let sink = try makeSink(server, tone)
        try sink.resume()
        tone.waitUntilRendered(frames: Int64(Self.rate / 10))
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit) == 0)
        if Self.mayChangeSchedulingFreely || limit.rlim_cur >= 4 {
            #expect(sink.realtimeScheduling == .granted(priority: 4))
            // The policy as the render closure's own thread sees it (less SCHED_RESET_ON_FORK).
            #expect(tone.renderThreadPolicy.load(ordering: .relaxed) & ~0x4000_0000 == SCHED_FIFO)
        } else if limit.rlim_cur == 0 {
            #expect(sink.realtimeScheduling == .refused(reason: String(cString: strerror(EPERM))))
            #expect(tone.renderThreadPolicy.load(ordering: .relaxed) == SCHED_OTHER)
        }
        sink.close()
    }

    @Test func closeRemovesTheStreamFromTheServer() throws {
        let server = try PulseAudioServer(sampleRate: Self.rate)
        let sink = try makeSink(server, TaggedTone(sampleRate: Self.rate))
        try sink.resume()
        #expect(try server.sinkInputs().count == 1)
        sink.close()
        #expect(try server.sinkInputs() == [])
        sink.close()
        // Controls after close do nothing.
        try sink.pause()
    }

    @Test func noServerIsReportedWithin2SecondsNamingTheAddress() throws {
        let address = "unix:/nonexistent-smfplay-\(getpid())/pulse/native"
        let start = ContinuousClock.now
        let error = #expect(throws: PulseAudioError.self) {
            _ = try PulseAudioSink(server: address, streamName: "test", sampleRate: Self.rate) { buffer, frames in
                buffer.update(repeating: 0, count: 2 * frames)
            }
        }
        // A missing server is known within 2 s.
        #expect(ContinuousClock.now - start < .seconds(2))
        guard case .noServer(let named, _) = try #require(error) else {
            Issue.record("expected noServer, got \(String(describing: error))")
            return
        }
        #expect(named == address)
        #expect(error!.description.contains(address))
        #expect(error!.description.contains("smfplay render"))
    }

    @Test func aServerThatNeverAnswersIsReportedWithin2Seconds() throws {
        // A socket that accepts connections and never says a word: only the deadline ends the wait.
        let silent = try SilentSocket()
        let address = "unix:" + silent.path
        let start = ContinuousClock.now
        let error = #expect(throws: PulseAudioError.self) {
            _ = try PulseAudioSink(server: address, streamName: "test", sampleRate: Self.rate) { buffer, frames in
                buffer.update(repeating: 0, count: 2 * frames)
            }
        }
        // A missing server is known within 2 s.
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(error == .noServer(address: address, reason: "no answer within 1.5 seconds"))
    }

    @Test func aServerGoingAwayDuringPlaybackIsReportedWithin2Seconds() throws {
        let server = try PulseAudioServer(sampleRate: Self.rate)
        let reported = Mutex<PulseAudioError?>(nil)
        let sink = try PulseAudioSink(
            server: server.address, streamName: "test", sampleRate: Self.rate,
            onFailure: { error in reported.withLock { $0 = error } },
            render: TaggedTone(sampleRate: Self.rate).render
        )
        try sink.resume()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(sink.failure == nil)
        server.crash()
        let start = ContinuousClock.now
        // The bound: the failure is known within 2 seconds.
        while sink.failure == nil, ContinuousClock.now - start < .seconds(2) {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let failure = try #require(sink.failure)
        #expect(failure.address == server.address)
        #expect(failure.description.contains("smfplay render"), "\(failure)")
        guard case .connectionLost = failure else {
            Issue.record("expected connectionLost, got \(failure)")
            return
        }
        #expect(reported.withLock { $0 } == failure)
        #expect(throws: failure) { try sink.pause() }
    }

    /// Whether this process holds CAP_SYS_NICE (root does, unless it was dropped), which
    /// lifts the RLIMIT_RTPRIO bound.
    static var mayChangeSchedulingFreely: Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let capabilities = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return capabilities & (1 << 23) != 0
    }

    private func makeSink(_ server: PulseAudioServer, _ tone: TaggedTone, latency: Duration = .milliseconds(50)) throws -> PulseAudioSink {
        try PulseAudioSink(server: server.address, streamName: "test tone", sampleRate: Self.rate, latency: latency, render: tone.render)
    }
}

/// A 440 Hz sine on the left channel at −6 dBFS, and on the right each frame's number (its tag),
/// so that a recording says exactly which frames were heard. Stops sounding at `stopFrame` or
/// when told to.
private final class TaggedTone: @unchecked Sendable {
    static let frequency = 440.0
    let sampleRate: Int
    let stopFrame: Int64
    let isSounding = Atomic<Bool>(true)
    /// Sleeps once when it reaches this frame: a render that misses its deadline.
    let stallAtFrame = Atomic<Int64>(.max)
    private let rendered = Atomic<Int64>(0)
    /// The scheduling policy of the thread that called `render`.
    let renderThreadPolicy = Atomic<Int32>(-1)

    init(sampleRate: Int, stopFrame: Int64 = .max) {
        self.sampleRate = sampleRate
        self.stopFrame = stopFrame
    }

    var renderedFrames: Int64 { rendered.load(ordering: .relaxed) }

    func render(_ buffer: UnsafeMutablePointer<Float>, _ frames: Int) {
        renderThreadPolicy.store(sched_getscheduler(0), ordering: .relaxed)
        let start = rendered.load(ordering: .relaxed)
        let sounding = isSounding.load(ordering: .relaxed)
        for index in 0..<frames {
            let frame = start + Int64(index)
            if sounding, frame < stopFrame {
                buffer[2 * index] = Float(0.5 * sin(2 * Double.pi * Self.frequency * Double(frame) / Double(sampleRate)))
                buffer[2 * index + 1] = Self.tag(frame)
            } else {
                buffer[2 * index] = 0
                buffer[2 * index + 1] = 0
            }
        }
        rendered.store(start + Int64(frames), ordering: .relaxed)
        let stall = stallAtFrame.load(ordering: .relaxed)
        if start + Int64(frames) >= stall {
            stallAtFrame.store(.max, ordering: .relaxed)
            usleep(200_000)
        }
    }

    /// 0.25 + frame / 2²², exact in a Float for 2²⁰ frames (21 s at 48 kHz).
    static func tag(_ frame: Int64) -> Float {
        0.25 + Float(frame % (1 << 20)) / Float(1 << 22)
    }

    static func frame(ofTag value: Float) -> Int64? {
        guard value >= 0.25, value < 0.5 else { return nil }
        return Int64(((value - 0.25) * Float(1 << 22)).rounded())
    }

    func waitUntilRendered(frames: Int64) {
        while renderedFrames < frames { Thread.sleep(forTimeInterval: 0.01) }
    }
}

/// A listening UNIX socket that never accepts: connecting works, the server never answers.
private final class SilentSocket {
    let path: String
    private let descriptor: Int32

    init() throws {
        path = "/tmp/smfplay-silent-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            let name = Array(path.utf8)
            bytes.copyBytes(from: name.prefix(bytes.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 4) == 0 else {
            throw PulseAudioServer.Failure("cannot listen on \(path)")
        }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}
