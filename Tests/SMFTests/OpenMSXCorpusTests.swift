import Dispatch
import Foundation
import SMF
import SystemPackage
import Testing

/// Reads every song of Debian's `openttd-openmsx` package with smfplay's
/// reader and with `midicsv` (an independent C parser), and compares them
/// event by event: track, absolute tick, type and values. The song durations
/// are compared too, computed from midicsv's records alone.
@Suite struct OpenMSXCorpusTests {
    @Test(arguments: OpenMSXCorpus.fileNames)
    func headerMatchesMidicsvWithoutWarnings(_ name: String) async throws {
        let song = try await OpenMSXCorpus.shared.song(named: name)
        let file = song.reading.file
        #expect(file.format.rawValue == song.midicsv.format, "\(name): format")
        #expect(file.tracks.count == song.midicsv.trackCount, "\(name): track count (midicsv prints the header's)")
        #expect(file.tracks.count == song.midicsv.tracks.count, "\(name): tracks listed by midicsv")
        #expect(Int(file.timebase.division) == song.midicsv.division, "\(name): division")
        #expect(
            song.reading.warnings.isEmpty && song.reading.omittedWarningCount == 0,
            "\(name): smfplay warns about a file midicsv reads cleanly: \(song.reading.warnings)")
    }

    @Test(arguments: OpenMSXCorpus.fileNames)
    func everyEventMatchesMidicsv(_ name: String) async throws {
        let comparison = try await OpenMSXCorpus.shared.song(named: name).events
        #expect(comparison.comparedEvents > 0, "\(name): no events compared")
        for mismatch in comparison.mismatches.prefix(10) {
            Issue.record(Comment(rawValue: mismatch))
        }
        if comparison.mismatches.count > 10 {
            Issue.record("\(name): \(comparison.mismatches.count - 10) more mismatches")
        }
    }

    @Test(arguments: OpenMSXCorpus.fileNames)
    func durationMatchesMidicsv(_ name: String) async throws {
        let song = try await OpenMSXCorpus.shared.song(named: name)
        let expected = try song.midicsv.durationInSeconds()
        let duration = Song(file: song.reading.file).duration
        #expect(abs(duration - expected) <= 0.001, "\(name): smfplay \(duration) s, from midicsv \(expected) s")
    }

    /// Without the corpus the tests above have no arguments and would pass
    /// silently; this one fails instead.
    @Test func wholeCorpusIsPresentAndCompared() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: OpenMSXCorpus.midicsvPath), "\(Midicsv.Failure.missing)")
        let names = OpenMSXCorpus.fileNames
        #expect(
            names.count >= 31,
            "\(names.count) .mid files in \(OpenMSXCorpus.directory), expected 31: run `make deps` (Debian package openttd-openmsx)")
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for name in names {
                group.addTask { try await OpenMSXCorpus.shared.song(named: name).events.comparedEvents }
            }
            return try await group.reduce(0, +)
        }
        #expect(total > 0, "no events compared")
    }

    /// The corpus only has `\000` and `""`; midicsv's other escapes are checked here.
    @Test func transcriptParserReadsMidicsvEscapes() throws {
        let csv: [UInt8] =
            Array(
                """
                0, 0, Header, 1, 1, 96
                1, 0, Start_track
                1, 0, Title_t, "say ""hi"", C:\\\\dir\\001\\177\\240
                """.utf8) + [0xE9]
            + Array(
                """
                , x"
                1, 5, Key_signature, -3, "minor"
                1, 9, End_track
                0, 0, End_of_file

                """.utf8)
        let transcript = try MidicsvTranscript(csv: csv)
        let title = Array("say \"hi\", C:\\dir".utf8) + [0x01, 0x7F, 0xA0, 0xE9] + Array(", x".utf8)
        #expect(
            transcript.tracks == [
                [
                    MidicsvRecord(track: 1, tick: 0, type: "Title_t", values: [.text(title)]),
                    MidicsvRecord(track: 1, tick: 5, type: "Key_signature", values: [.number(-3), .text(Array("minor".utf8))]),
                    MidicsvRecord(track: 1, tick: 9, type: "End_track", values: []),
                ]
            ])
        #expect((transcript.format, transcript.trackCount, transcript.division) == (1, 1, 96))
    }
}

/// The corpus files, each read once by both parsers however many tests use it.
actor OpenMSXCorpus {
    static let shared = OpenMSXCorpus()
    static let directory = "/usr/share/games/openttd/baseset/openmsx"
    static let midicsvPath = "/usr/bin/midicsv"

    /// The `.mid` files of the corpus, sorted; empty when the package is missing.
    static let fileNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".mid") }.sorted()
    }()

    private var songs: [String: Task<CorpusSong, any Error>] = [:]

    fileprivate func song(named name: String) async throws -> CorpusSong {
        if let task = songs[name] { return try await task.value }
        let task = Task { try await CorpusSong.load(name: name, path: Self.directory + "/" + name) }
        songs[name] = task
        return try await task.value
    }
}

/// One corpus file as read by smfplay and as printed by midicsv.
private struct CorpusSong: Sendable {
    var reading: SMFReader.Output
    var midicsv: MidicsvTranscript
    var events: EventComparison

    static func load(name: String, path: String) async throws -> CorpusSong {
        async let transcript = Midicsv.transcript(ofFile: path)
        let reading = try SMFReader().read(path: FilePath(path))
        let midicsv = try await transcript
        return CorpusSong(reading: reading, midicsv: midicsv, events: compareEvents(of: reading.file, with: midicsv, name: name))
    }

    struct EventComparison: Sendable {
        var comparedEvents = 0
        var mismatches: [String] = []
    }

    /// Compares every event of every track with midicsv's record at the same
    /// place; a track that is longer on one side shows as a missing event.
    private static func compareEvents(of file: MIDIFile, with midicsv: MidicsvTranscript, name: String) -> EventComparison {
        var comparison = EventComparison()
        for (index, track) in file.tracks.enumerated() {
            let number = index + 1
            let ours = track.events.map { midicsvRecord(of: $0, in: track, number: number) }
            let theirs = index < midicsv.tracks.count ? midicsv.tracks[index] : []
            for position in 0..<max(ours.count, theirs.count) {
                let mine = position < ours.count ? ours[position] : nil
                let other = position < theirs.count ? theirs[position] : nil
                comparison.comparedEvents += 1
                if mine != other {
                    comparison.mismatches.append(
                        "\(name) track \(number) event index \(position): smfplay `\(mine.map(String.init(describing:)) ?? "nothing")` ≠ midicsv `\(other.map(String.init(describing:)) ?? "nothing")`"
                    )
                }
            }
        }
        return comparison
    }
}

/// An event of ours as the midicsv record that would describe it, from the
/// decoded message. midicsv 1.1 predates meta types 0x08 and 0x09, so it
/// prints program and device names as unknown meta events.
private func midicsvRecord(of event: TrackEvent, in track: Track, number: Int) -> MidicsvRecord {
    let (type, values) = midicsvTypeAndValues(of: track.message(of: event))
    return MidicsvRecord(track: number, tick: Int(event.tick), type: type, values: values)
}

private func midicsvTypeAndValues(of message: MIDIMessage) -> (String, [MidicsvValue]) {
    switch message {
    case .noteOff(let c, let n, let v): ("Note_off_c", numbers(c, n, v))
    case .noteOn(let c, let n, let v): ("Note_on_c", numbers(c, n, v))
    case .notePressure(let c, let n, let p): ("Poly_aftertouch_c", numbers(c, n, p))
    case .controlChange(let c, let n, let v): ("Control_c", numbers(c, n, v))
    case .programChange(let c, let p): ("Program_c", numbers(c, p))
    case .channelPressure(let c, let p): ("Channel_aftertouch_c", numbers(c, p))
    case .pitchBend(let c, let v): ("Pitch_bend_c", numbers(c) + [.number(Int(v))])
    case .systemExclusive(let bytes): ("System_exclusive", counted(bytes))
    case .escapedBytes(let bytes): ("System_exclusive_packet", counted(bytes))
    case .meta(let meta): midicsvTypeAndValues(of: meta)
    }
}

private func midicsvTypeAndValues(of meta: MetaEvent) -> (String, [MidicsvValue]) {
    switch meta {
    case .sequenceNumber(let number): ("Sequence_number", number.map { [.number(Int($0))] } ?? [])
    case .text(.text, let bytes): ("Text_t", [.text(bytes)])
    case .text(.copyright, let bytes): ("Copyright_t", [.text(bytes)])
    case .text(.trackName, let bytes): ("Title_t", [.text(bytes)])
    case .text(.instrumentName, let bytes): ("Instrument_name_t", [.text(bytes)])
    case .text(.lyric, let bytes): ("Lyric_t", [.text(bytes)])
    case .text(.marker, let bytes): ("Marker_t", [.text(bytes)])
    case .text(.cuePoint, let bytes): ("Cue_point_t", [.text(bytes)])
    case .text(let kind, let bytes): ("Unknown_meta_event", numbers(kind.rawValue) + counted(bytes))
    case .channelPrefix(let channel): ("Channel_prefix", numbers(channel))
    case .port(let port): ("MIDI_port", numbers(port))
    case .endOfTrack: ("End_track", [])
    case .tempo(let tempo): ("Tempo", [.number(Int(tempo))])
    case .smpteOffset(let h, let m, let s, let f, let ff): ("SMPTE_offset", numbers(h, m, s, f, ff))
    case .timeSignature(let n, let d, let c, let b): ("Time_signature", numbers(n, d, c, b))
    case .keySignature(let key, let isMinor): ("Key_signature", [.number(Int(key)), .text(Array((isMinor ? "minor" : "major").utf8))])
    case .sequencerSpecific(let bytes): ("Sequencer_specific", counted(bytes))
    case .unknown(let type, let bytes): ("Unknown_meta_event", numbers(type) + counted(bytes))
    }
}

private func numbers(_ values: UInt8...) -> [MidicsvValue] {
    values.map { .number(Int($0)) }
}

/// A length followed by the bytes, as midicsv prints sysex and meta data.
private func counted(_ bytes: [UInt8]) -> [MidicsvValue] {
    [.number(bytes.count)] + bytes.map { .number(Int($0)) }
}

extension MidicsvTranscript {
    /// The song's length from midicsv's records alone: to the latest record
    /// of any track (End_track included), at 120 bpm until the first `Tempo`
    /// record, each tempo applying from its tick (at equal ticks the later
    /// track wins). Formats 0 and 1 with a ticks-per-quarter-note division only.
    fileprivate func durationInSeconds() throws -> Double {
        try #require(format == 0 || format == 1, "format \(format): tracks in sequence are not covered here")
        try #require((1..<0x8000).contains(division), "division \(division) is not ticks per quarter note")
        var endTick = 0
        var tempos: [(tick: Int, order: Int, tempo: Int)] = []
        for record in tracks.flatMap({ $0 }) {
            endTick = max(endTick, record.tick)
            if record.type == "Tempo", case .number(let tempo)? = record.values.first {
                tempos.append((record.tick, tempos.count, tempo))
            }
        }
        tempos.sort { ($0.tick, $0.order) < ($1.tick, $1.order) }
        // Microseconds times ticks per quarter note: exact integer arithmetic.
        var elapsed = 0
        var tick = 0
        var tempo = 500_000
        for change in tempos {
            elapsed += (change.tick - tick) * tempo
            tick = change.tick
            tempo = change.tempo
        }
        elapsed += (endTick - tick) * tempo
        return Double(elapsed) / (1_000_000 * Double(division))
    }
}

/// Runs midicsv.
private enum Midicsv {
    struct Failure: Error, CustomStringConvertible {
        var description: String

        static let missing = Failure(description: "\(OpenMSXCorpus.midicsvPath) is missing: run `make deps` (Debian package midicsv)")
    }

    /// midicsv's output for a file, parsed. Runs on a Dispatch thread, not the
    /// test's cooperative pool, since it blocks on the pipe.
    static func transcript(ofFile path: String) async throws -> MidicsvTranscript {
        let output = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try run(path) })
            }
        }
        return try MidicsvTranscript(csv: output)
    }

    private static func run(_ path: String) throws -> [UInt8] {
        guard FileManager.default.isExecutableFile(atPath: OpenMSXCorpus.midicsvPath) else {
            throw Failure.missing
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: OpenMSXCorpus.midicsvPath)
        process.arguments = [path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read everything before waiting, so a full pipe cannot stall midicsv.
        // midicsv writes at most one line to stderr, just before it exits, so
        // reading stderr after stdout cannot stall it either.
        let csv = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0, message.isEmpty else {
            throw Failure(description: "midicsv \(path) failed with status \(process.terminationStatus): \(String(decoding: message, as: UTF8.self))")
        }
        return [UInt8](csv)
    }
}
