import SystemPackage

/// A Standard MIDI File read event by event, keeping none of its events.
///
/// ``SMFReader`` keeps every event (8 bytes each, plus the bytes of every meta
/// and system exclusive event) for playing and seeking. A pass that only needs
/// to look at each event once — a thumbnail, a summary — can walk the file
/// with this instead: the same parser, the same leniency and the same errors,
/// holding nothing but the file's bytes. Each ``visit(_:)`` is one pass.
public struct SMFEventStream: Sendable {
    public let format: MIDIFileFormat
    public let timebase: Timebase
    public let policy: SMFReadingPolicy
    private let bytes: [UInt8]

    /// Loads a file from disk and reads its header. Errors name the file;
    /// errors inside tracks come from ``visit(_:)``.
    public init(path: FilePath, policy: SMFReadingPolicy = .lenient) throws(SMFFileError) {
        let (bytes, song) = try FileBytes.read(song: path, limit: policy.maximumFileSize)
        do {
            guard let song else {
                try self.init(bytes: bytes, policy: policy)
                return
            }
            // One song of an XMI file of several (`music.xmi/2`), walked as the MIDI file it reads as.
            let file = try bytes.withUnsafeBufferPointer { (buffer) throws(SMFError) -> MIDIFile in
                var reader = XMIReader(buffer, policy: policy, song: song)
                return try reader.read().file
            }
            try self.init(bytes: SMFWriter().encode(file), policy: policy)
        } catch {
            throw .invalid(path: path, error)
        }
    }

    /// Reads the header of a file's bytes.
    public init(bytes: [UInt8], policy: SMFReadingPolicy = .lenient) throws(SMFError) {
        // A MIDI 2.0 clip, a MUS score, an XMI song, an HMP file or a Recomposer song is walked as
        // the MIDI file it reads as.
        let translated =
            MIDIClipReader.isClip(bytes) || MUSReader.isMUS(bytes) || XMIReader.isXMI(bytes) || HMPReader.isHMP(bytes)
            || HMIReader.isHMI(bytes)
            || RecomposerReader.isRecomposer(bytes)
        let bytes = translated ? SMFWriter().encode(try SMFReader(policy: policy).read(bytes).file) : bytes
        var log = WarningLog(policy: policy)
        let layout = try bytes.withUnsafeBufferPointer { (buffer) throws(SMFError) -> SMFLayout in
            try SMFLayout(buffer, log: &log)
        }
        format = layout.format
        timebase = layout.timebase
        self.policy = policy
        self.bytes = bytes
    }

    /// Walks the tracks in file order, and each track's events in file order.
    /// Throws the error ``SMFReader`` would give for the file (under a strict
    /// policy, its first warning); the events before it have been visited.
    public func visit<Visitor: SMFEventVisitor>(_ visitor: inout Visitor) throws(SMFError) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(SMFError) in
            var log = WarningLog(policy: policy)
            let layout = try SMFLayout(buffer, log: &log)
            try withUnsafeMutablePointer(to: &visitor) { (outer) throws(SMFError) in
                var start: UInt64 = 0
                for (index, track) in layout.tracks.enumerated() {
                    for warning in layout.warnings(beforeTrack: index) { try log.add(warning) }
                    var timeline = TimelineVisitor(outer: outer, start: start)
                    log.add(contentsOf: try track.parse(policy: policy, into: &timeline))
                    let end = start + UInt64(timeline.lastTick)
                    outer.pointee.visitTrackEnd(atTick: end)
                    // Format 2 tracks are patterns played one after another (see `Timeline`).
                    if format == .multipleTracksAsynchronous { start = end }
                }
            }
            for warning in layout.warningsAfterLastTrack { try log.add(warning) }
        }
    }
}
