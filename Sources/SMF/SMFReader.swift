#if canImport(Glibc)
import Glibc
#endif

/// Reads Standard MIDI Files: the bytes of a `.mid`, `.kar` or RIFF `.rmi`
/// file into a ``MIDIFile``, with the warnings about what was unusual.
public struct SMFReader: Sendable {
    /// A file as read, with what was unusual about it.
    public struct Output: Sendable {
        public var file: MIDIFile
        /// Warnings in file order, at most ``SMFReadingPolicy/maximumWarnings``.
        public var warnings: [SMFWarning]
        /// Warnings beyond the maximum, counted only.
        public var omittedWarningCount: Int
    }

    public var policy: SMFReadingPolicy

    public init(policy: SMFReadingPolicy = .lenient) {
        self.policy = policy
    }

    /// Reads a file from disk. Errors name the file.
    public func read(path: String) throws(SMFFileError) -> Output {
        let bytes = try FileBytes.read(path: path, limit: policy.maximumFileSize)
        do {
            return try read(bytes)
        } catch {
            throw .invalid(path: path, error)
        }
    }

    /// Reads the bytes of a file.
    public func read(_ bytes: [UInt8]) throws(SMFError) -> Output {
        try bytes.withUnsafeBufferPointer { (buffer) throws(SMFError) -> Output in
            try read(buffer)
        }
    }

    private func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(SMFError) -> Output {
        var log = WarningLog(policy: policy)
        let region = try songRegion(in: bytes, log: &log)
        let header = try readHeader(bytes, region: region, log: &log)

        var chunks: [TrackParser] = []
        // Warnings about chunks wait for the tracks before them, so that all
        // warnings come in file order: `before[i]` precedes track i's own.
        var before: [[SMFWarning]] = [[]]
        var pos = header.end
        while pos < region.upperBound {
            guard region.upperBound - pos >= 8, let id = chunkID(bytes, at: pos) else {
                before[chunks.count].append(.trailingData(count: region.upperBound - pos, offset: pos))
                break
            }
            let declared = Int(readUInt32(bytes, at: pos + 4))
            let bodyStart = pos + 8
            let available = region.upperBound - bodyStart
            let bodyEnd = bodyStart + min(declared, available)
            if id == "MTrk" {
                // The header counts tracks in 16 bits; more chunks than that are
                // a hostile file that would cost memory for nothing.
                guard chunks.count < Int(UInt16.max) else { throw .tooManyTracks(offset: pos) }
                if declared > available {
                    before[chunks.count].append(.trackPastEndOfFile(track: chunks.count + 1, declared: declared, available: available))
                }
                chunks.append(TrackParser(bytes: bytes, body: bodyStart..<bodyEnd, isCutByEndOfFile: declared > available, number: chunks.count + 1))
                before.append([])
            } else {
                before[chunks.count].append(.unknownChunk(id: id, offset: pos))
            }
            pos = bodyEnd
        }
        guard !chunks.isEmpty else { throw .noTracks }

        var tracks: [Track] = []
        tracks.reserveCapacity(chunks.count)
        for (index, result) in parseTracks(chunks).enumerated() {
            for warning in before[index] { try log.add(warning) }
            let (track, trackLog) = try result.get()
            tracks.append(track)
            log.add(contentsOf: trackLog)
        }
        for warning in before[chunks.count] { try log.add(warning) }
        if chunks.count != header.trackCount {
            try log.add(.trackCountMismatch(declared: header.trackCount, found: chunks.count))
        }
        if header.format == .singleTrack, chunks.count > 1 {
            try log.add(.singleTrackFormatWithManyTracks(count: chunks.count))
        }
        return Output(file: MIDIFile(format: header.format, timebase: header.timebase, tracks: tracks),
                      warnings: log.warnings, omittedWarningCount: log.omittedCount)
    }

    /// Parses tracks on all cores when there is enough to share; each track is
    /// independent. One after another, parsing stops at the first failure.
    private func parseTracks(_ chunks: [TrackParser]) -> [Result<(Track, WarningLog), SMFError>] {
        let totalBytes = chunks.reduce(0) { $0 + $1.body.count }
        let policy = policy
        guard chunks.count > 1, totalBytes >= 1 << 20 else {
            var results: [Result<(Track, WarningLog), SMFError>] = []
            for chunk in chunks {
                results.append(Result { () throws(SMFError) in try chunk.parse(policy: policy) })
                if case .failure = results.last { break }
            }
            return results
        }
        let results = ConcurrentResults<(Track, WarningLog), SMFError>(count: chunks.count)
        results.fill { index throws(SMFError) in try chunks[index].parse(policy: policy) }
        return results.results()
    }

    /// The bytes that hold the SMF: the whole file, or the `data` chunk of a RIFF `RMID` file.
    private func songRegion(in bytes: UnsafeBufferPointer<UInt8>, log: inout WarningLog) throws(SMFError) -> Range<Int> {
        if bytes.count >= 4, chunkID(bytes, at: 0) == "MThd" { return 0..<bytes.count }
        if bytes.count >= 12, chunkID(bytes, at: 0) == "RIFF" {
            let formType = chunkID(bytes, at: 8) ?? "????"
            guard formType == "RMID" else { throw .riffWithoutMIDI(formType: formType) }
            // The RIFF size is often wrong in files from the wild; the file's end is what counts.
            let riffEnd = bytes.count
            var pos = 12
            while riffEnd - pos >= 8 {
                let size = Int(readUInt32LittleEndian(bytes, at: pos + 4))
                let bodyStart = pos + 8
                // A data chunk that does not start with MThd holds no song; look on.
                let bodyEnd = min(riffEnd, bodyStart + size)
                if chunkID(bytes, at: pos) == "data", bodyEnd - bodyStart >= 4, chunkID(bytes, at: bodyStart) == "MThd" {
                    return bodyStart..<bodyEnd
                }
                pos = bodyStart + size + (size & 1)
            }
            throw .riffWithoutDataChunk
        }
        // Files from old Macs may carry a 128-byte MacBinary header before MThd.
        let searchEnd = min(bytes.count - 4, 256)
        if searchEnd > 0 {
            for start in 1...searchEnd where chunkID(bytes, at: start) == "MThd" {
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

    private func readHeader(_ bytes: UnsafeBufferPointer<UInt8>, region: Range<Int>, log: inout WarningLog) throws(SMFError) -> Header {
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
