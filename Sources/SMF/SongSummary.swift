import Foundation

/// What a person wants to know about a song before playing it.
///
/// Channels are numbered 1–16 and tracks from 1, as players and editors show them.
public struct SongSummary: Codable, Hashable, Sendable {
    public struct TrackSummary: Codable, Hashable, Sendable {
        public var number: Int
        public var name: String?
        public var eventCount: Int
        public var noteCount: Int
        /// Channels (1–16) that this track's channel messages use.
        public var channels: [Int]
    }

    /// A program selected on a channel, with the bank in force when it was selected.
    public struct ProgramSelection: Codable, Hashable, Sendable {
        public var program: Int
        public var bankMSB: Int
        public var bankLSB: Int
        /// The General MIDI name (melodic channels only).
        public var instrument: String?
    }

    public struct ChannelSummary: Codable, Hashable, Sendable {
        public var channel: Int
        public var noteCount: Int
        /// Distinct programs in the order first selected.
        public var programs: [ProgramSelection]
        public var isPercussion: Bool
    }

    public struct TempoSummary: Codable, Hashable, Sendable {
        public var initialBPM: Double
        public var minimumBPM: Double
        public var maximumBPM: Double
        public var changeCount: Int
    }

    public struct TimeSignatureChange: Codable, Hashable, Sendable {
        public var seconds: Double
        public var numerator: Int
        public var denominator: Int
    }

    /// What the song writes on its sound module's screen, and when (see ``ModuleDisplay``).
    public struct DisplayChange: Codable, Hashable, Sendable {
        public var seconds: Double
        /// "GS" or "XG".
        public var module: String
        /// Letters, without the blanks after them; nil for a picture.
        public var text: String?
        /// The dot picture after the change (the Sound Canvas's dots, or an MU's bitmap), a line a
        /// row (`#` on, `.` off); nil for letters.
        public var picture: [String]?
    }

    /// The part of the song its marks say to repeat (see ``SongLoop``).
    public struct LoopSummary: Codable, Hashable, Sendable {
        public var startSeconds: Double
        public var endSeconds: Double
        /// How the file marks it: "controller 111", "loopStart/loopEnd markers"… (``SongLoop/Marking``).
        public var marking: String
        /// How many times the mark says the loop plays, where its convention says (0: for ever).
        public var markedPasses: Int?
    }

    public struct KeySignatureChange: Codable, Hashable, Sendable {
        public var seconds: Double
        public var sharpsOrFlats: Int
        public var isMinor: Bool
        /// The key's name, e.g. "E♭ major".
        public var name: String
    }

    /// An RMID file's INFO title, else the first track's name (see ``MIDIFile/titleText(decoding:)``).
    public var title: String?
    /// What an RMID file's INFO list says besides the title: artist, album…; nil for other files.
    public var rmidInfo: RMIDInfoSummary?
    /// What kind of file it is: "Standard MIDI File", "MIDI 2.0 clip" (``MIDIFile/Kind``).
    public var kind: String
    public var format: Int
    /// The division in words, e.g. "480 ticks per quarter note".
    public var timebase: String
    public var durationSeconds: Double
    public var noteCount: Int
    public var tracks: [TrackSummary]
    public var channels: [ChannelSummary]
    /// `nil` for an SMPTE division, where tempo does not apply.
    public var tempo: TempoSummary?
    public var timeSignatures: [TimeSignatureChange]
    public var keySignatures: [KeySignatureChange]
    public var copyright: String?
    public var lyrics: String?
    /// How the file's text was read.
    public var textDecoding: TextDecoding
    /// The standard the song was written for (GM, GS, XG, GM2), as smfplay plays it.
    public var midiMode: MIDIModeDetection
    /// What the song writes on its sound module's screen, in time order.
    public var display: [DisplayChange]
    /// What `--loops` repeats; nil when the song has no loop marks, or marks that make none.
    public var loop: LoopSummary?
    /// Why the song's loop marks make no loop, or that it has none.
    public var loopProblem: String?

    /// The summary of `song`, its text read with `textDecoding` (by default, the encoding its own
    /// text shows; see ``TextDecoding``). Without `displayAndLoop`, `display` is left empty and
    /// `loop` and `loopProblem` nil: for the library's index, which keeps neither, and reads
    /// thousands of songs a second.
    public init(song: Song, textDecoding: TextDecoding? = nil, displayAndLoop: Bool = true) {
        let file = song.file
        let decoding = textDecoding ?? TextDecoding(detectingIn: file)
        self.textDecoding = decoding
        kind = file.kind.rawValue
        format = Int(file.format.rawValue)
        timebase =
            switch file.timebase {
            case .musical(let ticks): "\(ticks) ticks per quarter note"
            case .smpte(let rate, let ticks):
                "SMPTE \(rate == .fps29_97Drop ? "29.97 (drop-frame)" : String(rate.rawValue)) frames per second, \(ticks) ticks per frame"
            }
        durationSeconds = song.duration
        tempo = TempoSummary(tempoMap: song.tempoMap, endTick: song.endTick)
        // The tracks' channel messages as each counted them when it was made (channels, notes,
        // bank and program selections), and the few events whose order across tracks matters
        // (meta and system exclusive events) found among those with bytes of their own.
        let scan = ChannelMessageScan(song: song)
        var others: [EventPlace] = []
        for (index, track) in file.tracks.enumerated() {
            let start = song.timeline.trackStartTicks[index]
            for position in track.payloadEventIndices {
                let event = track.events[position]
                if event.status == 0xFF || event.status == 0xF0 {
                    others.append(EventPlace(tick: start + UInt64(event.tick), track: index, index: position))
                }
            }
        }
        others.sort()
        tracks = file.tracks.enumerated().map { index, track in
            TrackSummary(
                number: index + 1, name: track.name.map(decoding.string(from:)), eventCount: track.events.count,
                noteCount: scan.noteCount(track: index), channels: (0..<16).filter { scan.channelMasks[index] & 1 << UInt16($0) != 0 }.map { $0 + 1 })
        }
        noteCount = tracks.reduce(0) { $0 + $1.noteCount }
        title = file.titleText(decoding: decoding)
        rmidInfo = file.rmidInfo.map { RMIDInfoSummary($0, decoding: $0.textDecoding(songDecoding: decoding)) }

        let detection = MIDIModeDetection(song: song, scan: scan)
        midiMode = detection
        var drumParts: [(place: EventPlace, part: Int, isDrum: Bool)] = []
        var timeSignatures: [TimeSignatureChange] = []
        var keySignatures: [KeySignatureChange] = []
        var copyright: [String] = []
        for place in others {
            let track = file.tracks[place.track]
            let event = track.events[place.index]
            switch track.message(of: event) {
            case .systemExclusive(let bytes) where bytes.last == 0xF7:
                SoundModuleCommand.decode(bytes.dropLast()) { command in
                    if case .partDrumMode(let part, let isDrum) = command, part < 16 { drumParts.append((place, part, isDrum)) }
                }

            case .meta(.timeSignature(let numerator, let power, _, _)):
                timeSignatures.append(
                    TimeSignatureChange(
                        seconds: song.tempoMap.seconds(atTick: place.tick), numerator: Int(numerator),
                        denominator: 1 << Int(min(power, 16))))
            case .meta(.keySignature(let sharpsOrFlats, let isMinor)):
                keySignatures.append(
                    KeySignatureChange(
                        seconds: song.tempoMap.seconds(atTick: place.tick), sharpsOrFlats: Int(sharpsOrFlats),
                        isMinor: isMinor, name: Self.keyName(sharpsOrFlats: sharpsOrFlats, isMinor: isMinor)))
            case .meta(.text(.copyright, let bytes)):
                copyright.append(decoding.string(from: bytes))
            default:
                break
            }
        }
        let channelState = Self.channelStates(song: song, mode: detection.mode, scan: scan, drumParts: drumParts)
        channels = channelState.compactMap(\.summary)
        self.timeSignatures = Self.withoutRepeats(timeSignatures) { ($0.numerator, $0.denominator) == ($1.numerator, $1.denominator) }
        self.keySignatures = Self.withoutRepeats(keySignatures) { $0.name == $1.name }
        self.copyright = copyright.isEmpty ? nil : copyright.joined(separator: "\n")
        display = (displayAndLoop ? ModuleDisplay.changes(in: song) : []).map { seconds, content in
            switch content {
            case .text(let letters, let module):
                DisplayChange(seconds: seconds, module: module.rawValue, text: ModuleDisplay.text(letters, decoding: decoding))
            case .picture(let picture, let module):
                DisplayChange(seconds: seconds, module: module.rawValue, picture: picture.lines)
            }
        }
        let lyrics = Lyrics(song: song, decoding: decoding)
        self.lyrics = lyrics.isEmpty ? nil : lyrics.text
        let loopFinding = displayAndLoop ? SongLoop.find(in: song) : nil
        loop = loopFinding?.loop.map { found in
            LoopSummary(
                startSeconds: song.tempoMap.seconds(atTick: found.startTick), endSeconds: song.tempoMap.seconds(atTick: found.endTick),
                marking: found.marking.rawValue, markedPasses: found.markedPasses)
        }
        loopProblem = loopFinding?.problemWhenLooping
    }

    /// Where an event is: its tick on the song's time line, then (at one tick) its track and place
    /// in it, the order of ``Song/mergedEvents()``.
    struct EventPlace: Comparable {
        var tick: UInt64
        var track: Int
        var index: Int

        static func < (a: EventPlace, b: EventPlace) -> Bool { (a.tick, a.track, a.index) < (b.tick, b.track, b.index) }
    }

    /// Each channel's banks, programs and notes, its events taken in the song's order. A channel's
    /// state changes only at its bank and program selections and its drum-part changes, which are
    /// few next to its notes: those are put in the song's order (from whichever tracks they come).
    /// A channel that plays drums all along, or never, counts its notes as the scan counted them;
    /// only on one that changes does each note, read track by track, count in the state in force at
    /// its place. No merge of every event of every track (a third of an index's time when it was
    /// one), and no pass over the notes for most songs.
    private static func channelStates(
        song: Song, mode: MIDIMode, scan: ChannelMessageScan,
        drumParts: [(place: EventPlace, part: Int, isDrum: Bool)]
    ) -> [ChannelState] {
        /// A change of a channel's state: a bank or program selection, or (nil) a drum-part change.
        typealias Setting = (place: EventPlace, event: TrackEvent?, isDrumPart: Bool)
        var settings = [[Setting]](repeating: [], count: 16)
        for change in drumParts { settings[change.part].append((change.place, nil, change.isDrum)) }
        for selection in scan.selections { settings[Int(selection.event.channel & 15)].append((selection.place, selection.event, false)) }
        var states = (0..<16).map { ChannelState(channel: UInt8($0), mode: mode) }
        // Per channel, whether it plays drums after each of its settings in turn (first: before
        // any): channel c's from `firstAfter[c]` on, in one array, not sixteen.
        var isDrumAfter: [Bool] = []
        var firstAfter: [Int] = []
        var changesDrums: [Bool] = []
        isDrumAfter.reserveCapacity(16 + drumParts.count + scan.selections.count)
        firstAfter.reserveCapacity(16)
        changesDrums.reserveCapacity(16)
        for channel in 0..<16 {
            settings[channel].sort { $0.place < $1.place }
            firstAfter.append(isDrumAfter.count)
            isDrumAfter.append(states[channel].isDrum)
            for setting in settings[channel] {
                if let event = setting.event { states[channel].apply(event) } else { states[channel].isDrumPart = setting.isDrumPart }
                isDrumAfter.append(states[channel].isDrum)
            }
            let after = isDrumAfter[firstAfter[channel]...]
            changesDrums.append(after.contains(true) && after.contains(false))
        }
        for channel in 0..<16 where !changesDrums[channel] {
            states[channel].countNotes(scan.noteCount(channel: channel), asDrum: isDrumAfter[firstAfter[channel]])
        }
        for (index, track) in song.file.tracks.enumerated() where scan.channelMasks[index] != 0 {
            let start = song.timeline.trackStartTicks[index]
            for channel in 0..<16 where scan.channelMasks[index] & 1 << UInt16(channel) != 0 { states[channel].used = true }
            guard (0..<16).contains(where: { changesDrums[$0] && scan.noteCount(track: index, channel: $0) > 0 }) else { continue }
            // Per channel, how many of its settings come before this track's event.
            var taken = [Int](repeating: 0, count: 16)
            for (position, event) in track.events.enumerated() where event.startsNote && changesDrums[Int(event.channel & 15)] {
                let channel = Int(event.channel & 15)
                if taken[channel] < settings[channel].count {
                    let place = EventPlace(tick: start + UInt64(event.tick), track: index, index: position)
                    while taken[channel] < settings[channel].count, settings[channel][taken[channel]].place < place { taken[channel] += 1 }
                }
                states[channel].countNotes(1, asDrum: isDrumAfter[firstAfter[channel] + taken[channel]])
            }
        }
        return states
    }

    /// Drops changes that restate what is already in force (many files repeat them in every track).
    private static func withoutRepeats<Change>(_ changes: [Change], same: (Change, Change) -> Bool) -> [Change] {
        var kept: [Change] = []
        for change in changes where kept.last.map({ !same($0, change) }) ?? true { kept.append(change) }
        return kept
    }

    static func keyName(sharpsOrFlats: Int8, isMinor: Bool) -> String {
        let majors = ["C♭", "G♭", "D♭", "A♭", "E♭", "B♭", "F", "C", "G", "D", "A", "E", "B", "F♯", "C♯"]
        let minors = ["A♭", "E♭", "B♭", "F", "C", "G", "D", "A", "E", "B", "F♯", "C♯", "G♯", "D♯", "A♯"]
        guard (-7...7).contains(sharpsOrFlats) else { return "unknown key (\(sharpsOrFlats) accidentals)" }
        let index = Int(sharpsOrFlats) + 7
        return isMinor ? "\(minors[index]) minor" : "\(majors[index]) major"
    }
}

extension SongSummary.TempoSummary {
    init?(tempoMap: TempoMap, endTick: UInt64) {
        // Tempo changes after the last event are never heard.
        let heard = tempoMap.segments.filter { $0.tick == 0 || $0.tick < endTick }
        let tempos = heard.compactMap(\.microsecondsPerQuarterNote)
        guard let first = tempos.first else { return nil }
        let changes = zip(tempos, tempos.dropFirst()).filter { $0 != $1 }.count
        let bpm = { (tempo: UInt32) in 60_000_000 / Double(tempo) }
        self.init(initialBPM: bpm(first), minimumBPM: bpm(tempos.max()!), maximumBPM: bpm(tempos.min()!), changeCount: changes)
    }
}
