import Dispatch
import Foundation
import SystemPackage
import Testing

@testable import SMF

/// Files on disk that are not MIDI files, and sweeps over damaged copies of a valid file.
@Suite struct BrokenFileTests {
    // MARK: Files on disk

    @Test func nonexistentPathIsUnreadable() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.path + "/missing.mid"
        #expect(throws: SMFFileError.unreadable(path: FilePath(path), reason: "no such file or directory")) {
            try SMFReader().read(path: FilePath(path))
        }
    }

    @Test func directoryIsNotARegularFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        #expect(throws: SMFFileError.notARegularFile(path: FilePath(folder.path))) { try SMFReader().read(path: FilePath(folder.path)) }
    }

    @Test func devNullIsNotARegularFile() {
        let error = #expect(throws: SMFFileError.notARegularFile(path: "/dev/null")) { try SMFReader().read(path: "/dev/null") }
        #expect(error?.description == "/dev/null: not a regular file")
    }

    /// A FIFO with no writer: opening it for reading waits for a writer, so the
    /// reader must find out what it is without blocking.
    @Test func fifoIsRefusedWithoutBlocking() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.path + "/pipe.mid"
        try #require(mkfifo(path, 0o644) == 0)
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do throws(SMFFileError) {
                _ = try SMFReader().read(path: FilePath(path))
            } catch {
                outcome.error = error
            }
            finished.signal()
        }
        var blocked = false
        while finished.wait(timeout: .now() + .seconds(2)) == .timedOut {
            blocked = true
            // Opening the write end releases a reader waiting in open(2).
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        #expect(!blocked, "read(path:) waited in open(2) for a writer to the FIFO")
        #expect(outcome.error == .notARegularFile(path: FilePath(path)))
    }

    @Test func fileOverTheSizeLimitIsRefusedBeforeReading() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = try folder.write("song.mid", Hostile.valid)
        let error = #expect(throws: SMFFileError.tooLarge(path: FilePath(path), size: 34, limit: 33)) {
            try SMFReader(policy: SMFReadingPolicy(maximumFileSize: 33)).read(path: FilePath(path))
        }
        #expect(error?.description == "\(path): file is 34 bytes, more than the 33 bytes a MIDI file may have here")
        // At the limit it reads.
        let output = try SMFReader(policy: SMFReadingPolicy(maximumFileSize: 34)).read(path: FilePath(path))
        #expect(Hostile.eventCounts(output) == [3])
    }

    @Test func brokenFileOnDiskNamesFileByteAndTrack() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        // The third track's events start at 62; its second note is cut after 8 bytes.
        let bytes =
            RawSMF.header(tracks: 3) + RawSMF.track(Hostile.note) + RawSMF.track(Hostile.note)
            + RawSMF.track(Hostile.note + [0x00, 0x90, 0x3C], endOfTrack: false)
        let path = try folder.write("song.mid", bytes)
        let error = #expect(throws: SMFFileError.invalid(path: FilePath(path), .truncatedEvent(offset: 70, track: 3))) {
            try SMFReader().read(path: FilePath(path))
        }
        #expect(error?.description == "\(path): truncated event at byte 70 in track 3")
    }

    @Test func emptyFileOnDiskIsNotAMIDIFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = try folder.write("empty.mid", [])
        let error = #expect(throws: SMFFileError.invalid(path: FilePath(path), .notAMIDIFile)) { try SMFReader().read(path: FilePath(path)) }
        #expect(error?.description == "\(path): \(MIDIFileSignature.mismatch)")
    }

    // MARK: Sweeps

    /// Every prefix of a valid three-track file: refused with the error its length
    /// calls for, or read with the events that are whole in it.
    @Test func everyPrefixOfAValidFileReadsOrFails() throws {
        let original = Self.sampleFile()
        let bytes = SMFWriter().encode(original)
        let trackStarts = Self.chunkStarts(in: bytes)
        try #require(trackStarts.count == 3)
        var eventsBefore = 0
        for length in 0...bytes.count {
            let prefix = Array(bytes.prefix(length))
            let output: SMFReader.Output
            do {
                output = try SMFReader().read(prefix)
            } catch {
                let expected: SMFError =
                    switch length {
                    case ..<4: .notAMIDIFile
                    case ..<14: .truncatedHeader(offset: length)
                    default: .noTracks
                    }
                #expect(error == expected && length < 22, "prefix of \(length) bytes")
                continue
            }
            #expect(output.file.tracks.count == trackStarts.filter { $0 + 8 <= length }.count, "prefix of \(length) bytes")
            for (read, whole) in zip(output.file.tracks, original.tracks) {
                #expect(read.events == Array(whole.events.prefix(read.events.count)), "prefix of \(length) bytes")
                #expect(Hostile.messages(read) == Array(Hostile.messages(whole).prefix(read.events.count)), "prefix of \(length) bytes")
            }
            #expect(output.warnings.allSatisfy(Self.comesFromACut), "prefix of \(length) bytes: \(output.warnings)")
            let events = output.file.tracks.reduce(0) { $0 + $1.events.count }
            #expect(events >= eventsBefore, "prefix of \(length) bytes")
            eventsBefore = events
            // Every cut shows; only the whole file passes strict reading.
            #expect((Hostile.readError(prefix, policy: .strict) == nil) == (length == bytes.count), "prefix of \(length) bytes")
        }
        let whole = try SMFReader().read(bytes)
        #expect(whole.file == original)
        #expect(whole.warnings.isEmpty)
    }

    /// 20,000 copies of a valid file (a third of them in an RMID wrapper, a third in a whole RMID
    /// file: INFO list, picture, sound bank) with random byte changes, insertions, deletions,
    /// copies and cuts.
    @Test func seededMutationsNeverTrapAndKeepTheReadersPromises() {
        let smf = SMFWriter().encode(Self.sampleFile())
        let originals = [smf, Hostile.rmid(smf), RMIDWriterTests.written().encode(song: smf, soundBank: Array(RMIDWriterTests.bank))]
        var random = XorShift64(seed: 0x5EED_0F_5A_FEFA_11)
        var read = 0
        var refused = 0
        var reported = 0
        for iteration in 0..<20_000 {
            var bytes = originals[iteration % originals.count]
            for _ in 0...random.below(4) { Self.mutate(&bytes, &random) }
            switch Self.checkPromises(bytes) {
            case .read: read += 1
            case .refused: refused += 1
            case .broken(let problem):
                reported += 1
                if reported <= 5 {
                    Issue.record("mutation \(iteration): \(problem); bytes: \(bytes.map { String($0, radix: 16) }.joined(separator: " "))")
                }
            }
        }
        #expect(reported == 0)
        // The mutations reach both outcomes often, or the fuzz tests little.
        #expect(read > 2_000 && refused > 2_000, "read \(read), refused \(refused)")
    }

    // MARK: Helpers

    private enum Verdict {
        case read, refused
        case broken(String)
    }

    /// What the reader promises for any bytes it is given.
    private static func checkPromises(_ bytes: [UInt8]) -> Verdict {
        let lenient = SMFReadingPolicy(maximumWarnings: 8)
        let output: SMFReader.Output
        do {
            output = try SMFReader(policy: lenient).read(bytes)
        } catch {
            return Hostile.readError(bytes, policy: .strict) == nil ? .broken("lenient reading refused it (\(error)), strict read it") : .refused
        }
        if output.warnings.count > lenient.maximumWarnings {
            return .broken("\(output.warnings.count) warnings kept")
        }
        for (number, track) in output.file.tracks.enumerated() {
            if !zip(track.events, track.events.dropFirst()).allSatisfy({ $0.tick <= $1.tick }) {
                return .broken("ticks go back in track \(number + 1)")
            }
            if let end = track.events.firstIndex(where: { track.metaType(of: $0) == 0x2F }), end != track.events.count - 1 {
                return .broken("events after End of Track in track \(number + 1)")
            }
            _ = Hostile.messages(track)
        }
        // What was read is written as a valid file with the same song.
        if let problem = StrictRoundTrip.problem(writing: output.file) { return .broken(problem) }
        // Strict reading fails on the first warning, or reads the same file.
        let strict: Result<SMFReader.Output, SMFError> = Result { () throws(SMFError) in try SMFReader(policy: .strict).read(bytes) }
        switch (strict, output.warnings.first) {
        case (.success(let strictOutput), nil) where output.omittedWarningCount == 0:
            if strictOutput.file != output.file { return .broken("strict reading read another file") }
        case (.failure(.rejected(let warning)), let first?) where warning == first:
            break
        default:
            return .broken("strict reading gave \(strict) for warnings \(output.warnings)")
        }
        return .read
    }

    private static func mutate(_ bytes: inout [UInt8], _ random: inout XorShift64) {
        let interesting: [UInt8] = [0x00, 0x01, 0x2F, 0x51, 0x7F, 0x80, 0x81, 0xF0, 0xF7, 0xFF]
        guard !bytes.isEmpty else {
            bytes.append(random.byte())
            return
        }
        let position = random.below(bytes.count)
        switch random.below(16) {
        case 0..<5: bytes[position] = random.byte()
        case 5..<8: bytes[position] = interesting[random.below(interesting.count)]
        case 8..<10: bytes[position] ^= 1 << UInt8(random.below(8))
        case 10..<12: bytes.insert(random.byte(), at: random.below(bytes.count + 1))
        case 12..<14: bytes.remove(at: position)
        case 14: bytes.insert(contentsOf: bytes[position..<min(bytes.count, position + 1 + random.below(16))], at: random.below(bytes.count + 1))
        default: bytes.removeLast(random.below(bytes.count))
        }
    }

    /// Reasons a warning may have for a prefix of a valid file.
    private static func comesFromACut(_ warning: SMFWarning) -> Bool {
        switch warning {
        case .trackPastEndOfFile, .trackCutOff, .missingEndOfTrack, .trackCountMismatch, .trailingData: true
        default: false
        }
    }

    /// The offsets of the chunks after a 14-byte header.
    private static func chunkStarts(in bytes: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var position = 14
        while position + 8 <= bytes.count {
            starts.append(position)
            position += 8 + bytes[position + 4..<position + 8].reduce(0) { $0 << 8 | Int($1) }
        }
        return starts
    }

    /// Three tracks built with `Track.append`: meta events, running status,
    /// sysex with a 2-byte length, an escape, and deltas of 1 to 4 bytes.
    static func sampleFile() -> MIDIFile {
        var conductor = Track()
        conductor.append(.meta(.text(.trackName, Array("Conductor".utf8))), atTick: 0)
        conductor.append(
            .meta(.timeSignature(numerator: 3, denominatorPower: 2, clocksPerMetronomeClick: 24, thirtySecondNotesPerQuarter: 8)), atTick: 0)
        conductor.append(.meta(.keySignature(sharpsOrFlats: -3, isMinor: true)), atTick: 0)
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 375_000)), atTick: 1_920)
        conductor.append(.meta(.endOfTrack), atTick: 3_840)

        var piano = Track()
        piano.append(.meta(.text(.trackName, Array("Piano".utf8))), atTick: 0)
        piano.append(.programChange(channel: 0, program: 1), atTick: 0)
        piano.append(.controlChange(channel: 0, controller: 7, value: 100), atTick: 0)
        for (index, key) in [60, 64, 67, 72].enumerated() {
            let tick = UInt32(index) * 480
            piano.append(.noteOn(channel: 0, note: UInt8(key), velocity: 90), atTick: tick)
            piano.append(.noteOn(channel: 0, note: UInt8(key), velocity: 0), atTick: tick + 400)
        }
        piano.append(.pitchBend(channel: 0, value: 10_000), atTick: 2_000)
        piano.append(.channelPressure(channel: 0, pressure: 30), atTick: 2_000)
        piano.append(.meta(.endOfTrack), atTick: 3_840)

        var extras = Track()
        extras.append(.systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7]), atTick: 0)
        extras.append(.systemExclusive(Array(repeating: 0x11, count: 200) + [0xF7]), atTick: 10)
        extras.append(.escapedBytes([0xF3, 0x01]), atTick: 20)
        extras.append(.notePressure(channel: 9, note: 36, pressure: 50), atTick: 20_000)
        extras.append(.noteOff(channel: 9, note: 36, velocity: 0), atTick: 20_000 + Track.maximumDelta)
        extras.append(.meta(.sequencerSpecific([0x00, 0x00, 0x41])), atTick: 20_000 + Track.maximumDelta)
        extras.append(.meta(.endOfTrack), atTick: 20_000 + Track.maximumDelta)

        return MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: [conductor, piano, extras])
    }
}

/// A tiny deterministic random number generator (xorshift64).
private struct XorShift64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 1 : seed }

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 32) }
}

/// The error of a read on another thread; the semaphore orders the accesses.
private final class Outcome: @unchecked Sendable {
    var error: SMFFileError?
}

/// A folder of its own under the temporary folder.
private struct ScratchFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("smfplay-broken-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to `name` in the folder and returns its path.
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
