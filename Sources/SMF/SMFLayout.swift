/// Where a file's song lies: its header, and its track chunks with the
/// warnings about the chunks around them.
///
/// Found before any event is read, so that ``SMFReader``, which keeps every
/// event, and ``SMFEventStream``, which keeps none, read a file alike.
struct SMFLayout {
    var format: MIDIFileFormat
    var timebase: Timebase
    /// A parser for each `MTrk` chunk, in file order; never empty.
    var tracks: [TrackParser]
    /// An RMID file's INFO list (``MIDIFile/rmidInfo``).
    var rmidInfo: RMIDInfo?
    /// An RMID file's sound bank (``MIDIFile/embeddedSoundBank``).
    var embeddedSoundBank: EmbeddedSoundBank?
    /// Warnings about chunks wait for the tracks before them, so that all
    /// warnings come in file order: `before[i]` precedes track i's own.
    private var before: [[SMFWarning]]
    private var declaredTrackCount: Int

    /// Finds the song in `bytes`; warnings about its start and header go to `log`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, log: inout WarningLog) throws(SMFError) {
        let region: Range<Int>
        let isRMID: Bool
        if let outline = try Self.rmidOutline(of: bytes, log: &log) {
            region = outline.song
            rmidInfo = outline.info
            embeddedSoundBank = outline.soundBank
            isRMID = true
        } else {
            region = try Self.songRegion(in: bytes, log: &log)
            isRMID = false
        }
        let header = try Self.readHeader(bytes, region: region, log: &log)
        format = header.format
        timebase = header.timebase
        declaredTrackCount = header.trackCount
        tracks = []
        before = [[]]
        var pos = header.end
        while pos < region.upperBound {
            guard region.upperBound - pos >= 8, let id = riffChunkID(bytes, at: pos) else {
                // An RMID writer that counted the data chunk's pad byte in its size (Falcosoft's
                // player, Cakewalk) leaves one zero after the song: that is no trailing data.
                if !(isRMID && region.upperBound - pos == 1 && bytes[pos] == 0) {
                    before[tracks.count].append(.trailingData(count: region.upperBound - pos, offset: pos))
                }
                break
            }
            let declared = Int(readUInt32(bytes, at: pos + 4))
            let bodyStart = pos + 8
            let available = region.upperBound - bodyStart
            let bodyEnd = bodyStart + min(declared, available)
            if id == "MTrk" {
                // The header counts tracks in 16 bits; more chunks than that are
                // a hostile file that would cost memory for nothing.
                guard tracks.count < Int(UInt16.max) else { throw .tooManyTracks(offset: pos) }
                if declared > available {
                    before[tracks.count].append(.trackPastEndOfFile(track: tracks.count + 1, declared: declared, available: available))
                }
                tracks.append(TrackParser(bytes: bytes, body: bodyStart..<bodyEnd, isCutByEndOfFile: declared > available, number: tracks.count + 1))
                before.append([])
            } else {
                before[tracks.count].append(.unknownChunk(id: id, offset: pos))
            }
            pos = bodyEnd
        }
        guard !tracks.isEmpty else { throw .noTracks }
    }

    /// The warnings about chunks between track `index - 1` and track `index` (0-based).
    func warnings(beforeTrack index: Int) -> [SMFWarning] {
        before[index]
    }

    /// The warnings that come after every track's own: chunks after the last
    /// track, and the header's promises the tracks did not keep.
    var warningsAfterLastTrack: [SMFWarning] {
        var warnings = before[tracks.count]
        if tracks.count != declaredTrackCount {
            warnings.append(.trackCountMismatch(declared: declaredTrackCount, found: tracks.count))
        }
        if format == .singleTrack, tracks.count > 1 {
            warnings.append(.singleTrackFormatWithManyTracks(count: tracks.count))
        }
        return warnings
    }

    /// The outline of a RIFF `RMID` file; nil when the file is not a RIFF file.
    private static func rmidOutline(of bytes: UnsafeBufferPointer<UInt8>, log: inout WarningLog) throws(SMFError) -> RMIDOutline? {
        guard bytes.count >= 12, riffChunkID(bytes, at: 0) == "RIFF" else { return nil }
        let formType = riffChunkID(bytes, at: 8) ?? "????"
        guard formType == "RMID" else { throw .riffWithoutMIDI(formType: formType) }
        return try RMIDOutline(bytes, log: &log)
    }

    /// The bytes that hold the SMF of a file that is not RIFF: the whole file, or what follows
    /// a header some old Macs put before it.
    private static func songRegion(in bytes: UnsafeBufferPointer<UInt8>, log: inout WarningLog) throws(SMFError) -> Range<Int> {
        if bytes.count >= 4, riffChunkID(bytes, at: 0) == "MThd" { return 0..<bytes.count }
        // Files from old Macs may carry a 128-byte MacBinary header before MThd.
        let searchEnd = min(bytes.count - 4, 256)
        if searchEnd > 0 {
            for start in 1...searchEnd where riffChunkID(bytes, at: start) == "MThd" {
                try log.add(.skippedLeadingBytes(count: start))
                return start..<bytes.count
            }
        }
        throw .notAMIDIFile
    }

    private struct Header {
        var format: MIDIFileFormat
        var trackCount: Int
        var timebase: Timebase
        var end: Int
    }

    private static func readHeader(_ bytes: UnsafeBufferPointer<UInt8>, region: Range<Int>, log: inout WarningLog) throws(SMFError) -> Header {
        let start = region.lowerBound
        guard region.count >= 8 else { throw .truncatedHeader(offset: region.upperBound) }
        let length = Int(readUInt32(bytes, at: start + 4))
        guard length >= 6 else { throw .headerTooShort(length: length, offset: start) }
        guard region.count - 8 >= length else { throw .truncatedHeader(offset: region.upperBound) }
        if length > 6 { try log.add(.longHeader(length: length)) }
        let formatNumber = readUInt16(bytes, at: start + 8)
        let format: MIDIFileFormat
        if let known = MIDIFileFormat(rawValue: formatNumber) {
            format = known
        } else {
            try log.add(.unknownFormat(formatNumber))
            format = .multipleTracksSynchronous
        }
        let trackCount = Int(readUInt16(bytes, at: start + 10))
        let division = readUInt16(bytes, at: start + 12)
        let timebase: Timebase
        if division & 0x8000 == 0 {
            guard division != 0 else { throw .zeroDivision }
            timebase = .musical(ticksPerQuarterNote: division)
        } else {
            let rate = Int8(bitPattern: UInt8(division >> 8))
            guard let frameRate = SMPTEFrameRate(rawValue: UInt8(-Int(rate))) else { throw .unknownFrameRate(rate) }
            let ticksPerFrame = UInt8(division & 0xFF)
            guard ticksPerFrame != 0 else { throw .zeroDivision }
            timebase = .smpte(frameRate, ticksPerFrame: ticksPerFrame)
        }
        return Header(format: format, trackCount: trackCount, timebase: timebase, end: start + 8 + length)
    }
}

private func readUInt32(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
}

private func readUInt16(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt16 {
    UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
}
