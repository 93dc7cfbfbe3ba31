import AudioOutput
import Foundation
import Playback
import SMF
import Synchronization
import Synthesis
import SystemPackage
@_exported import TestSupport
import Testing

/// The default render settings of `smfplay render`, as the synthesizer sees them.
enum DefaultRender {
    /// `RenderSettings.defaultGain`. That type lives in Configuration, which this test target does not
    /// depend on; keep the two equal.
    static let gain = 0.16

    static func settings(sampleRate: Double = 44_100) -> SynthesizerSettings {
        SynthesizerSettings(sampleRate: sampleRate, gain: gain)
    }
}

/// Songs built in code, at 480 ticks per quarter note and the default 120 bpm: 960 ticks a second.
enum TestSongs {
    static let ticksPerSecond = 960.0

    static func song(_ build: (inout Track) -> Void) -> Song {
        var track = Track()
        build(&track)
        return Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    static func tick(_ seconds: Double) -> UInt32 { UInt32((seconds * ticksPerSecond).rounded()) }

    /// Piano chords, a bass line and hi-hats from 0 to 1.5 s, then silence to the End of Track at
    /// 2 s: every note is released before the song ends. Reverb and chorus sends are up.
    static let notesEnd = 1.5
    static let melody = song { track in
        track.append(.programChange(channel: 0, program: 0), atTick: 0)
        track.append(.programChange(channel: 1, program: 33), atTick: 0)
        for channel: UInt8 in [0, 1] {
            track.append(.controlChange(channel: channel, controller: 91, value: 40), atTick: 0)
            track.append(.controlChange(channel: channel, controller: 93, value: 60), atTick: 0)
        }
        for step in 0..<6 {
            let start = tick(Double(step) * 0.25)
            let end = tick(Double(step) * 0.25 + 0.2)
            for note: UInt8 in [60, 64, 67] { track.append(.noteOn(channel: 0, note: note + UInt8(step), velocity: 100), atTick: start) }
            track.append(.noteOn(channel: 1, note: 36 + UInt8(step), velocity: 110), atTick: start)
            track.append(.noteOn(channel: 9, note: 42, velocity: 90), atTick: start)
            for note: UInt8 in [60, 64, 67] { track.append(.noteOff(channel: 0, note: note + UInt8(step), velocity: 64), atTick: end) }
            track.append(.noteOff(channel: 1, note: 36 + UInt8(step), velocity: 64), atTick: end)
            track.append(.noteOff(channel: 9, note: 42, velocity: 64), atTick: end)
        }
        track.append(.meta(.endOfTrack), atTick: tick(2))
    }

    /// A church organ chord that starts at 0 and is never released (no note-off): it sounds for
    /// as long as anything is rendered. End of Track at 1 s.
    static let heldOrgan = song { track in
        track.append(.programChange(channel: 0, program: 19), atTick: 0)
        for note: UInt8 in [48, 55, 60] { track.append(.noteOn(channel: 0, note: note, velocity: 100), atTick: 0) }
        track.append(.meta(.endOfTrack), atTick: tick(1))
    }

    /// One strings note with a long release, 1 s long, End of Track at 1.1 s. The release and the
    /// reverb sound well past the end.
    static let stringsNote = song { track in
        track.append(.programChange(channel: 0, program: 48), atTick: 0)
        track.append(.noteOn(channel: 0, note: 62, velocity: 110), atTick: 0)
        track.append(.noteOff(channel: 0, note: 62, velocity: 64), atTick: tick(1))
        track.append(.meta(.endOfTrack), atTick: tick(1.1))
    }
}

/// Levels of interleaved samples, in linear units (1 is full scale) or decibels relative to full scale.
enum Level {
    static func peak(_ samples: ArraySlice<Float>) -> Float {
        samples.reduce(0) { max($0, abs($1)) }
    }

    static func rms(_ samples: ArraySlice<Float>) -> Float {
        guard !samples.isEmpty else { return 0 }
        return Float((samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot())
    }

    static func decibels(_ level: Float) -> Double {
        20 * log10(Double(max(level, .leastNonzeroMagnitude)))
    }

    static func linear(decibels: Double) -> Float {
        Float(pow(10, decibels / 20))
    }
}

/// What a file holds and how loud it is over time, measured in one pass without keeping its samples.
struct AudioMeasurement: Sendable {
    static let windowSeconds = 0.05

    var sampleRate: Int
    var channels: Int
    var frames: Int
    var peak: Float
    /// The RMS level over each whole 50 ms window from the start, all channels together.
    var windowRMS: [Double]
    /// The frame after the last one with a sample at or above `audibleLevel`: 0 for a silent file.
    var audibleFrames: Int

    /// The level below which the renderer's tail counts as silence: −90 dBFS.
    static let audibleLevel = RenderOptions.silenceThreshold

    var seconds: Double { Double(frames) / Double(sampleRate) }
    var audibleSeconds: Double { Double(audibleFrames) / Double(sampleRate) }

    init(path: String) throws {
        let reader = try AudioFileReader(path: FilePath(path))
        sampleRate = reader.sampleRate
        channels = reader.channels
        let windowSamples = Int((Self.windowSeconds * Double(sampleRate)).rounded()) * channels
        let capacity = 16_384 * channels
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        let samples = buffer.baseAddress!
        var frames = 0
        var peak: Float = 0
        var windowRMS: [Double] = []
        var sum = 0.0
        var inWindow = 0
        var lastAudibleSample = -1
        while true {
            let read = try reader.read(into: buffer)
            if read == 0 { break }
            let firstSample = frames * channels
            frames += read
            // Plain pointer loops: the tests run in debug builds, where anything more is slow.
            var index = 0
            let count = read * channels
            while index < count {
                let end = min(count, index + windowSamples - inWindow)
                inWindow += end - index
                while index < end {
                    let sample = samples[index]
                    if abs(sample) >= Self.audibleLevel { lastAudibleSample = firstSample + index }
                    peak = max(peak, abs(sample))
                    sum += Double(sample * sample)
                    index += 1
                }
                if inWindow == windowSamples {
                    windowRMS.append((sum / Double(windowSamples)).squareRoot())
                    sum = 0
                    inWindow = 0
                }
            }
        }
        self.frames = frames
        self.peak = peak
        self.windowRMS = windowRMS
        audibleFrames = lastAudibleSample < 0 ? 0 : lastAudibleSample / channels + 1
    }
}

/// Work on threads of their own: a minute of rendering on Dispatch's pool, which is only as wide as
/// the machine has cores, would hold up every timer other tests set on it.
enum OwnThreads {
    /// Runs each name through a worker, `workers` names at a time, each thread making its worker
    /// first (a synthesizer, say); returns when all are done, with each name's result.
    static func map<Value: Sendable>(
        _ names: [String], workers: Int,
        makeWorker: @escaping @Sendable () throws -> (String) throws -> Value
    ) async
        -> [String: Result<Value, any Error>]
    {
        let next = Mutex(0)
        let results = Mutex<[String: Result<Value, any Error>]>([:])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let remaining = Mutex(workers)
            for _ in 0..<workers {
                Thread {
                    do {
                        let work = try makeWorker()
                        while let name = next.withLock({ index -> String? in
                            defer { index += 1 }
                            return index < names.count ? names[index] : nil
                        }) {
                            let result = Result { try work(name) }
                            results.withLock { $0[name] = result }
                        }
                    } catch {
                        results.withLock { $0["(worker)"] = .failure(error) }
                    }
                    if remaining.withLock({ count in
                        count -= 1
                        return count == 0
                    }) {
                        continuation.resume()
                    }
                }.start()
            }
        }
        return results.withLock { $0 }
    }
}
