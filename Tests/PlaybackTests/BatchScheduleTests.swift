import Foundation
import Playback
import SMF
import Synchronization
import Synthesis
import SystemPackage
import Testing

@testable import Playback

/// The order a batch's songs start in, and the cores each may be split across.
struct BatchScheduleTests {
    @Test func largestFileFirst() throws {
        let folder = try TemporaryFolder()
        for (name, size) in [("a.mid", 10), ("b.mid", 30), ("c.mid", 20), ("d.mid", 20)] {
            try Data(count: size).write(to: URL(fileURLWithPath: folder.file(name)))
        }
        let songs = ["a.mid", "b.mid", "c.mid", "gone.mid", "d.mid"].map { FilePath(folder.file($0)) }
        #expect(BatchRenderer.largestFirst(songs) == [1, 2, 4, 0, 3], "sizes 10, 30, 20, none, 20")
    }

    /// A song is split only across cores that would otherwise idle: never while another worker is
    /// about to take a job, never across a core another song renders on.
    @Test func coresThatWouldIdle() {
        #expect(BatchRenderer.cores(of: 2, busy: 0, idleWorkers: 1, left: 30) == 1, "the first of many: the other worker takes the next")
        #expect(BatchRenderer.cores(of: 2, busy: 0, idleWorkers: 0, left: 0) == 2, "one song alone")
        #expect(BatchRenderer.cores(of: 2, busy: 1, idleWorkers: 0, left: 0) == 1, "the last while another renders")
        #expect(BatchRenderer.cores(of: 2, busy: 0, idleWorkers: 1, left: 0) == 2, "the last, the other worker done")
        #expect(BatchRenderer.cores(of: 4, busy: 0, idleWorkers: 1, left: 1) == 3, "two songs on four cores: the first")
        #expect(BatchRenderer.cores(of: 4, busy: 3, idleWorkers: 0, left: 0) == 1, "… and the second")
    }

    /// A batch of four songs on two cores: the largest start first, and no song is split while
    /// the other worker has songs to render (each plays on one synthesizer but perhaps the last).
    @Test func batchStartsLargestFirstUnsplit() throws {
        let folder = try TemporaryFolder()
        var jobs: [RenderJob] = []
        for (number, seconds) in [1.0, 3.0, 2.0, 2.5].enumerated() {
            var track = Track()
            for step in 0..<Int(seconds * 8) {
                let tick = UInt32(step * 120)
                track.append(.noteOn(channel: 0, note: UInt8(60 + step % 12), velocity: 100), atTick: tick)
                track.append(.noteOff(channel: 0, note: UInt8(60 + step % 12), velocity: 0), atTick: tick + 100)
            }
            track.append(.meta(.endOfTrack), atTick: UInt32(seconds * 960))
            let file = MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])
            let input = folder.file("song\(number).mid")
            try Data(SMFWriter().encode(file)).write(to: URL(fileURLWithPath: input))
            jobs.append(RenderJob(input: FilePath(input), output: FilePath(folder.file("song\(number).wav"))))
        }
        let renderer = try BatchRenderer(
            settings: DefaultRender.settings(), soundFonts: SoundFontStack([TestSoundFont.required()]),
            options: RenderOptions(format: .wav, encoding: .float32), cores: 2, jobCount: jobs.count)
        let events = Mutex((started: [Int](), parts: [Int: Int]()))
        renderer.run(jobs) { event in
            switch event {
            case .started(let index): events.withLock { $0.started.append(index) }
            case .finished(let index, let result, _): events.withLock { $0.parts[index] = result.partCount }
            case .failed(let index, let error): Issue.record("song \(index): \(error)")
            default: break
            }
        }
        let (started, parts) = events.withLock { ($0.started, $0.parts) }
        // Two workers take them in order, but may say so in either order.
        #expect(Set(started.prefix(2)) == [1, 3] && Set(started.suffix(2)) == [2, 0], "the two largest first: \(started)")
        #expect([1, 2, 3].allSatisfy { parts[$0] == 1 }, "split while the other worker had songs: \(parts)")
    }
}
