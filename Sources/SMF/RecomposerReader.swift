import Files
import SystemPackage

/// Reads a Recomposer file (Come On Music's sequencer for the PC-98: RCP v2, `.rcp` and `.r36`;
/// RCP v3, `.g36` and `.g18`) into the ``MIDIFile`` smfplay plays: a first track with the song's
/// title, comment lines, tempo, time and key signature (and the tempo and key changes of every
/// track), then one MIDI track for each Recomposer track, at the file's ticks per quarter note,
/// on the track's channel and port (``RecomposerTrackReader`` plays each through).
///
/// Where the sources on the format disagree, this mostly follows two of them against the third (Valley
/// Bell's notes and rcp2mid, shingo45endo's rcm2smf, TiMidity++'s rcp.c). An endless loop (a
/// count of 0, or one so long it can only mean that) plays once, marked by `loopStart` and
/// `loopEnd` markers (``SongLoop``) where every looping track loops alike; tracks whose loops
/// differ play each loop twice, with a warning. The MT-32/CM-64 (`.cm6`) and Sound Canvas
/// (`.gsd`) setup files a song names are not read: a warning names each.
struct RecomposerReader {
    /// Commands played in all, loops unrolled: some ten times a long song's (36 tracks of a few
    /// thousand commands, their loops played out), short of a hang or of filling memory.
    static let commandBudget = 1_000_000
    /// Ticks per quarter note when the header's make no sense (Recomposer's own default).
    static let defaultTicksPerQuarterNote = 48

    private let bytes: UnsafeBufferPointer<UInt8>
    private var log: WarningLog
    /// Warnings said once a file (an unknown command once per code): what they are kept as.
    private var warnedKinds: Set<String> = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, policy: SMFReadingPolicy) {
        self.bytes = bytes
        log = WarningLog(policy: policy)
    }

    static func isRecomposer(_ bytes: some Collection<UInt8>) -> Bool {
        RecomposerHeader.Version(bytes) != nil
    }

    mutating func read() throws(SMFError) -> SMFReader.Output {
        guard let version = RecomposerHeader.Version(bytes) else { throw .notAMIDIFile }
        let header = try RecomposerHeader(bytes, version: version)
        for file in header.setupFiles {
            try add(.recomposerSetupFileNotRead(name: TextDecoding(forcing: .shiftJIS).string(from: file.name), device: file.device, isBeside: nil))
        }
        var ticksPerQuarterNote = header.ticksPerQuarterNote
        if !(1...0x7FFF).contains(ticksPerQuarterNote) {
            try add(.recomposerInvalidTimebase(ticksPerQuarterNote))
            ticksPerQuarterNote = Self.defaultTicksPerQuarterNote
        }
        var beatsPerMinute = header.beatsPerMinute
        if beatsPerMinute == 0 {
            try add(.recomposerZeroTempo(track: nil, offset: version == .rcp ? 0x1C1 : 0x20C))
            beatsPerMinute = 120
        }
        // 0/0 happens (Valley Bell's notes): no time signature, which plays as 4/4; else it must be one.
        if header.timeSignature == nil, header.beatNumerator != 0 || header.beatDenominator != 0 {
            try add(.recomposerInvalidTimeSignature(numerator: header.beatNumerator, denominator: header.beatDenominator))
        }
        let places = try trackPlaces(header)
        func reader(_ index: Int, passes: Int) -> RecomposerTrackReader {
            RecomposerTrackReader(
                bytes, header: header, ticksPerQuarterNote: ticksPerQuarterNote, beatsPerMinute: beatsPerMinute, track: places[index].range,
                isCutOff: places[index].isCutOff, number: index + 1, endlessPasses: passes)
        }
        var budget = Self.commandBudget
        var outputs: [RecomposerTrackReader.Output] = []
        for index in places.indices {
            var track = reader(index, passes: 1)
            outputs.append(track.read(budget: &budget))
            for warning in outputs[index].warnings { try add(warning) }
        }
        // Endless loops: marked where they agree, or where the shorter ones fit the longest a
        // whole number of times (a drum pattern under a melody), those played that many times.
        var marked: Range<Int64>?
        let looping = outputs.indices.filter { outputs[$0].endlessLoop.map { !$0.isEmpty } ?? false }
        if let first = looping.first.flatMap({ outputs[$0].endlessLoop }) {
            let spans = looping.map { outputs[$0].endlessLoop! }
            let longest = spans.map(\.count).max()!
            let fits = spans.allSatisfy { $0.lowerBound == first.lowerBound && longest % $0.count == 0 }
            if !fits { try add(.recomposerLoopsDisagree) }
            // Played again from the start: their warnings were said the first time.
            var again = Self.commandBudget
            for (index, span) in zip(looping, spans) where !fits || span.count != longest {
                var track = reader(index, passes: fits ? longest / span.count : 2)
                outputs[index] = track.read(budget: &again)
            }
            if fits { marked = first.lowerBound..<first.lowerBound + Int64(longest) }
        }
        var tracks = [conductor(header, beatsPerMinute: beatsPerMinute, outputs: outputs, loop: marked)]
        tracks += outputs.map { Self.track($0.events, endTick: $0.endTick) }
        return SMFReader.Output(
            file: MIDIFile(
                format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: UInt16(ticksPerQuarterNote)), tracks: tracks,
                kind: version.kind),
            warnings: log.warnings, omittedWarningCount: log.omittedCount)
    }

    /// Where each track lies: its bytes in the file, and whether the file ends before it does.
    private mutating func trackPlaces(_ header: RecomposerHeader) throws(SMFError) -> [(range: Range<Int>, isCutOff: Bool)] {
        let version = header.version
        var places: [(range: Range<Int>, isCutOff: Bool)] = []
        var offset = version.headerLength
        while places.count < header.declaredTrackCount {
            // Some files end with a footer of their own (rcm2smf).
            guard offset + version.trackHeaderLength <= bytes.count, !bytes[offset..<offset + 4].elementsEqual("RCFW".utf8) else { break }
            var length = 0
            for index in 0..<version.trackLengthFieldSize { length |= Int(bytes[offset + index]) << (8 * index) }
            // An RCP track's length counts 4-byte commands: its low two bits are bits 16 and 17,
            // for tracks of up to 256 KB (Valley Bell's rcp2mid, for files converted by ItoR.x).
            if version == .rcp { length = length & ~3 | (length & 3) << 16 }
            guard length >= version.trackHeaderLength else {
                try add(.recomposerBadTrackLength(track: places.count + 1, length: length, offset: offset))
                return places
            }
            let end = offset + length
            places.append((offset..<min(end, bytes.count), end > bytes.count))
            offset = end
        }
        if places.count < header.declaredTrackCount {
            try add(.recomposerTrackCountMismatch(declared: header.declaredTrackCount, found: places.count))
        }
        return places
    }

    /// The song's first track: its title and comment lines, tempo, time and key signature, every
    /// track's tempo and key changes, and the loop marks.
    private func conductor(_ header: RecomposerHeader, beatsPerMinute: Int, outputs: [RecomposerTrackReader.Output], loop: Range<Int64>?) -> Track {
        var events: [RecomposerTrackReader.Event] = []
        func add(_ message: MIDIMessage, at tick: UInt64 = 0) {
            events.append(RecomposerTrackReader.Event(tick: tick, order: events.count, message: message))
        }
        if !header.title.isEmpty { add(.meta(.text(.trackName, header.title))) }
        for line in header.comments { add(.meta(.text(.text, line))) }
        add(.meta(.tempo(microsecondsPerQuarterNote: UInt32(min(60_000_000 / beatsPerMinute, 0xFF_FFFF)))))
        if let signature = header.timeSignature { add(.meta(signature)) }
        add(.meta(RecomposerTrackReader.keySignature(header.key)))
        if let loop {
            add(.meta(.text(.marker, Array("loopStart".utf8))), at: UInt64(loop.lowerBound))
            add(.meta(.text(.marker, Array("loopEnd".utf8))), at: UInt64(loop.upperBound))
        }
        // Each track's changes after the header's, in track order where they fall at one tick.
        for (index, output) in outputs.enumerated() {
            for change in output.conductor {
                events.append(RecomposerTrackReader.Event(tick: change.tick, order: (index + 1) << 32 | change.order, message: change.message))
            }
        }
        let songEnd = outputs.map(\.endTick).max() ?? 0
        return Self.track(events, endTick: songEnd)
    }

    /// The events in time order, as a MIDI track (their ticks within its reach: the track reader
    /// keeps them there).
    private static func track(_ events: [RecomposerTrackReader.Event], endTick: UInt64) -> Track {
        var track = Track()
        for event in events.sorted(by: { ($0.tick, $0.order) < ($1.tick, $1.order) }) {
            track.append(event.message, atTick: UInt32(event.tick))
        }
        track.appendEnd(atTick: UInt64(endTick))
        return track
    }

    private mutating func add(_ warning: SMFWarning) throws(SMFError) {
        if let kind = RecomposerTrackReader.onceKind(warning) {
            guard warnedKinds.insert(kind).inserted else { return }
        }
        try log.add(warning)
    }

    /// `output`'s warnings about setup files, each saying whether the file lies beside the song
    /// at `path` (its name in any case, as a PC-98's file names are); unchanged where the folder
    /// cannot be listed (a member of an archive).
    static func locatingSetupFiles(_ output: SMFReader.Output, besideSongAt path: FilePath) -> SMFReader.Output {
        var folder = path.removingLastComponent()
        if folder.isEmpty { folder = "." }
        guard let names = folder.entryNames()?.map({ $0.string.lowercased() }) else { return output }
        var output = output
        output.warnings = output.warnings.map { warning in
            guard case .recomposerSetupFileNotRead(let name, let device, nil) = warning else { return warning }
            return .recomposerSetupFileNotRead(name: name, device: device, isBeside: names.contains(name.lowercased()))
        }
        return output
    }
}
