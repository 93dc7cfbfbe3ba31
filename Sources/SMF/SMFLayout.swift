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
    /// An RMID file's title (``MIDIFile/infoTitle``).
    var infoTitle: [UInt8]?
    /// Warnings about chunks wait for the tracks before them, so that all
    /// warnings come in file order: `before[i]` precedes track i's own.
    private var before: [[SMFWarning]]
    private var declaredTrackCount: Int

    /// Finds the song in `bytes`; warnings about its start and header go to `log`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, log: inout WarningLog) throws(SMFError) {
        let (region, infoTitle) = try Self.songRegion(in: bytes, log: &log)
        self.infoTitle = infoTitle
        let header = try Self.readHeader(bytes, region: region, log: &log)
        format = header.format
        timebase = header.timebase
        declaredTrackCount = header.trackCount
        tracks = []
        before = [[]]
        var pos = header.end
        while pos < region.upperBound {
            guard region.upperBound - pos >= 8, let id = chunkID(bytes, at: pos) else {
                before[tracks.count].append(.trailingData(count: region.upperBound - pos, offset: pos))
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

    /// The bytes that hold the SMF: the whole file, or the `data` chunk of a RIFF `RMID` file,
    /// with the title of the RMID file's `INFO` list (before or after its data).
    private static func songRegion(in bytes: UnsafeBufferPointer<UInt8>, log: inout WarningLog) throws(SMFError) -> (Range<Int>, infoTitle: [UInt8]?)
    {
        if bytes.count >= 4, chunkID(bytes, at: 0) == "MThd" { return (0..<bytes.count, nil) }
        if bytes.count >= 12, chunkID(bytes, at: 0) == "RIFF" {
            let formType = chunkID(bytes, at: 8) ?? "????"
            guard formType == "RMID" else { throw .riffWithoutMIDI(formType: formType) }
            var song: Range<Int>?
            var title: [UInt8]?
            for chunk in riffChunks(in: bytes, from: 12, to: bytes.count) {
                // A data chunk that does not start with MThd holds no song; look on.
                if song == nil, chunk.id == "data", chunk.body.count >= 4, chunkID(bytes, at: chunk.body.lowerBound) == "MThd" {
                    song = chunk.body
                } else if title == nil, chunk.id == "LIST", chunk.body.count >= 4, chunkID(bytes, at: chunk.body.lowerBound) == "INFO" {
                    title = riffChunks(in: bytes, from: chunk.body.lowerBound + 4, to: chunk.body.upperBound)
                        .first { $0.id == "INAM" }
                        .map { Array(UnsafeBufferPointer(rebasing: bytes[$0.body]).prefix { $0 != 0 }) }
                }
            }
            guard let song else { throw .riffWithoutDataChunk }
            return (song, title)
        }
        // Files from old Macs may carry a 128-byte MacBinary header before MThd.
        let searchEnd = min(bytes.count - 4, 256)
        if searchEnd > 0 {
            for start in 1...searchEnd where chunkID(bytes, at: start) == "MThd" {
                try log.add(.skippedLeadingBytes(count: start))
                return (start..<bytes.count, nil)
            }
        }
        throw .notAMIDIFile
    }

    /// The RIFF chunks from `start` to `end`, each body cut at `end`: the sizes are often wrong
    /// in files from the wild, and the file's end is what counts.
    private static func riffChunks(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> [(id: String?, body: Range<Int>)] {
        var chunks: [(id: String?, body: Range<Int>)] = []
        var pos = start
        while end - pos >= 8 {
            let size = Int(readUInt32LittleEndian(bytes, at: pos + 4))
            let bodyStart = pos + 8
            chunks.append((chunkID(bytes, at: pos), bodyStart..<min(end, bodyStart + size)))
            pos = bodyStart + size + (size & 1)
        }
        return chunks
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

/// The four-character chunk ID at `offset`, or `nil` when those bytes are not printable ASCII.
private func chunkID(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> String? {
    guard offset >= 0, bytes.count - offset >= 4 else { return nil }
    let id = bytes[offset..<offset + 4]
    guard id.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
    return String(decoding: id, as: UTF8.self)
}

private func readUInt32(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
}

private func readUInt32LittleEndian(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
    UInt32(bytes[offset + 3]) << 24 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset])
}

private func readUInt16(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt16 {
    UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
}
