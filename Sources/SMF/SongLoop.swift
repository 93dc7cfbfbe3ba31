/// The part of a song that game music repeats, as its file marks it: from controller 111 (RPG
/// Maker's mark) to the song's end, or between `loopStart` and `loopEnd` markers.
///
/// Marks are read leniently, as players of such files do: the text of a marker, cue point or text
/// event is matched whatever its case, spaces, hyphens and underscores (`loopStart`, `LOOP_START`,
/// `Loop Start`); when both kinds of mark are there the markers win; a `loopStart`
/// without a `loopEnd` loops to the song's end. Marks that make no loop (an end before the start,
/// an end without a start, a loop too short to hear) leave the song to play as written, with a
/// ``problem`` that says why.
public struct SongLoop: Hashable, Sendable {
    public enum Marking: String, Hashable, Sendable {
        case controller111 = "controller 111"
        case markers = "loopStart/loopEnd markers"
    }

    public let startTick: UInt64
    public let endTick: UInt64
    public let marking: Marking

    /// A loop shorter than this is not repeated: it would make a buzz, not music.
    public static let shortestSeconds = 0.1

    public init(startTick: UInt64, endTick: UInt64, marking: Marking) {
        self.startTick = startTick
        self.endTick = endTick
        self.marking = marking
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
    public static let noMarks = "it has no loop marks (controller 111, or loopStart and loopEnd markers): played once, as written"

    public static func find(in song: Song) -> Finding {
        var controllerStart: UInt64?
        var markerStarts: [UInt64] = []
        var markerEnds: [UInt64] = []
        for (index, track) in song.file.tracks.enumerated() {
            let start = song.timeline.trackStartTicks[index]
            let hasMarkers = track.payloads.contains { Self.markTypes.contains($0.metaType) }
            for event in track.events {
                if event.status & 0xF0 == 0xB0, event.status < 0xF0, event.data1 == 111 {
                    let tick = start + UInt64(event.tick)
                    controllerStart = min(controllerStart ?? tick, tick)
                } else if hasMarkers, event.status == 0xFF, let type = track.metaType(of: event), Self.markTypes.contains(type) {
                    switch markerName(track.payload(of: event)) {
                    case "loopstart": markerStarts.append(start + UInt64(event.tick))
                    case "loopend": markerEnds.append(start + UInt64(event.tick))
                    default: break
                    }
                }
            }
        }
        let songEnd = song.endTick
        let candidate: SongLoop
        if let start = markerStarts.min() {
            guard let end = markerEnds.filter({ $0 > start }).min() ?? (markerEnds.isEmpty ? songEnd : nil) else {
                return Finding(
                    problem:
                        "its loopEnd marker (\(time(markerEnds.min()!, song))) comes before its loopStart (\(time(start, song))): played as written")
            }
            candidate = SongLoop(startTick: start, endTick: min(end, songEnd), marking: .markers)
        } else if let end = markerEnds.min() {
            return Finding(problem: "it has a loopEnd marker (\(time(end, song))) but no loopStart: played as written")
        } else if let start = controllerStart {
            candidate = SongLoop(startTick: start, endTick: songEnd, marking: .controller111)
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

    /// The meta events whose text may mark a loop: text (01), marker (06) and cue point (07).
    private static let markTypes: Set<UInt8> = [0x01, 0x06, 0x07]

    /// A mark's text, lower-cased, without spaces, hyphens, underscores or NULs (ASCII only: the
    /// marks are).
    private static func markerName(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.count <= 32 else { return "" }
        let letters = bytes.filter { ![0x20, 0x2D, 0x5F, 0x00].contains($0) }
        return String(decoding: letters.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private static func time(_ tick: UInt64, _ song: Song) -> String {
        MIDIModeDetection.time(song.tempoMap.seconds(atTick: tick))
    }
}
