/// The part of a song that game music repeats, as its file marks it, in the conventions game
/// music files use: `loopStart` and `loopEnd` markers; controllers 116 and 117 (EMIDI, Miles'
/// XMI: the start's value a count of passes, 0 for ever); 118 and 119 (EMIDI's track loops, taken
/// when every track that has them loops alike); 111 (RPG Maker: from there to the song's end);
/// and 2 and 4 (Touhou: breath and foot controllers otherwise, so taken only when the file sends
/// each exactly once, the start before the end).
///
/// Marks are read leniently, as players of such files do: the text of a marker, cue point or text
/// event is matched whatever its case, spaces, hyphens and underscores (`loopStart`, `LOOP_START`,
/// `Loop Start`); when a file has marks of several conventions, the first in the list above wins;
/// a start without an end loops to the song's end. Marks that make no loop (an end before the
/// start, an end without a start, a loop too short to hear) leave the song to play as written,
/// with a ``problem`` that says why.
public struct SongLoop: Hashable, Sendable {
    public enum Marking: String, Hashable, Sendable {
        case markers = "loopStart/loopEnd markers"
        case emidi = "controllers 116/117, EMIDI/XMI"
        case emidiTrack = "controllers 118/119, EMIDI tracks"
        case controller111 = "controller 111"
        case touhou = "controllers 2/4, Touhou"
    }

    public let startTick: UInt64
    public let endTick: UInt64
    public let marking: Marking
    /// How many times the mark says the loop plays, where its convention says (EMIDI and XMI);
    /// 0 for ever; nil where it does not.
    public let markedPasses: Int?

    /// A loop shorter than this is not repeated: it would make a buzz, not music.
    public static let shortestSeconds = 0.1

    public init(startTick: UInt64, endTick: UInt64, marking: Marking, markedPasses: Int? = nil) {
        self.startTick = startTick
        self.endTick = endTick
        self.marking = marking
        self.markedPasses = markedPasses
    }

    /// What a song's loop marks make.
    public struct Finding: Hashable, Sendable {
        public var loop: SongLoop?
        /// Why marks in the file make no loop, for a warning.
        public var problem: String?

        public init(loop: SongLoop? = nil, problem: String? = nil) {
            self.loop = loop
            self.problem = problem
        }

        /// Whether the song has no loop marks at all.
        public var isUnmarked: Bool { loop == nil && problem == nil }

        /// What `--loops` must say of the song: why its marks make no loop, or that it has none.
        public var problemWhenLooping: String? {
            problem ?? (isUnmarked ? SongLoop.noMarks : nil)
        }
    }

    /// A song without loop marks: `--loops` cannot repeat it.
    public static let noMarks =
        "it has no loop marks (loopStart and loopEnd markers, or controllers 116/117, 118/119, 111 or 2/4): played once, as written"

    public static func find(in song: Song) -> Finding {
        let marks = LoopMarks(song)
        let songEnd = song.endTick
        let candidate: SongLoop
        if let start = marks.markerStarts.min() {
            guard let end = marks.markerEnds.filter({ $0 > start }).min() ?? (marks.markerEnds.isEmpty ? songEnd : nil) else {
                return Finding(
                    problem:
                        "its loopEnd marker (\(time(marks.markerEnds.min()!, song))) comes before its loopStart (\(time(start, song))): played as written"
                )
            }
            candidate = SongLoop(startTick: start, endTick: min(end, songEnd), marking: .markers)
        } else if let end = marks.markerEnds.min() {
            return Finding(problem: "it has a loopEnd marker (\(time(end, song))) but no loopStart: played as written")
        } else if let start = marks.controllers[116]?.first {
            let end = marks.controllers[117]?.first { $0.tick > start.tick }?.tick ?? songEnd
            candidate = SongLoop(startTick: start.tick, endTick: min(end, songEnd), marking: .emidi, markedPasses: Int(start.value))
        } else if let starts = marks.controllers[118], let start = starts.first {
            let ends = marks.controllers[119] ?? []
            guard starts.allSatisfy({ $0.tick == start.tick }), ends.allSatisfy({ $0.tick == ends.first?.tick }) else {
                return Finding(problem: "its track loops (controllers 118/119) lie at different places in different tracks: played as written")
            }
            let end = ends.first.map(\.tick).flatMap { $0 > start.tick ? $0 : nil } ?? songEnd
            candidate = SongLoop(startTick: start.tick, endTick: min(end, songEnd), marking: .emidiTrack, markedPasses: Int(start.value))
        } else if let start = marks.controllers[111]?.first {
            candidate = SongLoop(startTick: start.tick, endTick: songEnd, marking: .controller111)
        } else if let starts = marks.controllers[2], let ends = marks.controllers[4], starts.count == 1, ends.count == 1,
            ends[0].tick > starts[0].tick
        {
            candidate = SongLoop(startTick: starts[0].tick, endTick: min(ends[0].tick, songEnd), marking: .touhou)
        } else {
            return Finding()
        }
        let seconds = song.tempoMap.seconds(atTick: candidate.endTick) - song.tempoMap.seconds(atTick: candidate.startTick)
        guard seconds >= shortestSeconds else {
            return Finding(
                problem:
                    "its loop (\(candidate.marking.rawValue), \(time(candidate.startTick, song)) to \(time(candidate.endTick, song))) is too short to repeat: played as written"
            )
        }
        return Finding(loop: candidate)
    }

    /// The marks of every convention in a song, in time order: one pass over its events.
    private struct LoopMarks {
        var markerStarts: [UInt64] = []
        var markerEnds: [UInt64] = []
        /// The controllers that mark loops in some convention, with their ticks and values.
        var controllers: [UInt8: [(tick: UInt64, value: UInt8)]] = [:]

        private static let markControllers: Set<UInt8> = [2, 4, 111, 116, 117, 118, 119]

        init(_ song: Song) {
            for (index, track) in song.file.tracks.enumerated() {
                let start = song.timeline.trackStartTicks[index]
                let hasMarkers = track.payloads.contains { SongLoop.markTypes.contains($0.metaType) }
                for event in track.events {
                    if event.status & 0xF0 == 0xB0, event.status < 0xF0, Self.markControllers.contains(event.data1) {
                        controllers[event.data1, default: []].append((start + UInt64(event.tick), event.data2))
                    } else if hasMarkers, event.status == 0xFF, let type = track.metaType(of: event), SongLoop.markTypes.contains(type) {
                        switch SongLoop.markerName(track.payload(of: event)) {
                        case "loopstart": markerStarts.append(start + UInt64(event.tick))
                        case "loopend": markerEnds.append(start + UInt64(event.tick))
                        default: break
                        }
                    }
                }
            }
            for key in controllers.keys { controllers[key]!.sort { $0.tick < $1.tick } }
        }
    }

    /// The meta events whose text may mark a loop: text (01), marker (06) and cue point (07).
    fileprivate static let markTypes: Set<UInt8> = [0x01, 0x06, 0x07]

    /// A mark's text, lower-cased, without spaces, hyphens, underscores or NULs (ASCII only: the
    /// marks are).
    fileprivate static func markerName(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.count <= 32 else { return "" }
        let letters = bytes.filter { ![0x20, 0x2D, 0x5F, 0x00].contains($0) }
        return String(decoding: letters.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private static func time(_ tick: UInt64, _ song: Song) -> String {
        MIDIModeDetection.time(song.tempoMap.seconds(atTick: tick))
    }
}
