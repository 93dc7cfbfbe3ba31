import SystemPackage
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// Reads Standard MIDI Files: the bytes of a `.mid`, `.kar` or RIFF `.rmi`
/// file into a ``MIDIFile``, with the warnings about what was unusual; and MIDI 2.0 Clip Files
/// (`.midi2`), MUS scores (`.mus`), XMI songs (`.xmi`), HMP files (`.hmp`) and Recomposer songs
/// (`.rcp`, `.g36`…), translated to the same (`MIDIClipReader`, `MUSReader`, `XMIReader`,
/// `HMPReader`, `RecomposerReader`).
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

    /// Reads a file from disk, or a member of an archive (`pack.zip/song.mid`), or one song of a
    /// file of several (`music.xmi/2`, the second). Errors name the file.
    public func read(path: FilePath) throws(SMFFileError) -> Output {
        let (bytes, song) = try FileBytes.read(song: path, limit: policy.maximumFileSize)
        do {
            // Whether the setup files a Recomposer song names lie beside it, which its bytes cannot say.
            let isRecomposer = RecomposerReader.isRecomposer(bytes)
            // The bytes are the reader's own: each track's go back to the system once it is read.
            let output = try bytes.withUnsafeBufferPointer { (buffer) throws(SMFError) -> Output in
                guard let song else { return try read(buffer, releasingParsedTracks: true) }
                var reader = XMIReader(buffer, policy: policy, song: song)
                return try reader.read()
            }
            return isRecomposer ? RecomposerReader.locatingSetupFiles(output, besideSongAt: path) : output
        } catch {
            throw .invalid(path: path, error)
        }
    }

    /// How many songs the file at `path` holds: an XMI file's songs, each played as a file of its
    /// own (`music.xmi/1`, `music.xmi/2`…); 1 for any other file, and for one that cannot be read.
    public func songCount(ofFileAt path: FilePath) -> Int {
        guard let bytes = try? FileBytes.read(path: path, limit: policy.maximumFileSize), XMIReader.isXMI(bytes) else { return 1 }
        return max(1, bytes.withUnsafeBufferPointer { XMIReader.songs(in: $0).count })
    }

    /// Reads the bytes of a file.
    public func read(_ bytes: [UInt8]) throws(SMFError) -> Output {
        try bytes.withUnsafeBufferPointer { (buffer) throws(SMFError) -> Output in
            try read(buffer)
        }
    }

    private func read(_ bytes: UnsafeBufferPointer<UInt8>, releasingParsedTracks: Bool = false) throws(SMFError) -> Output {
        if MIDIClipReader.isClip(bytes) {
            var clip = MIDIClipReader(bytes, policy: policy)
            return try clip.read()
        }
        if MUSReader.isMUS(bytes) {
            var score = MUSReader(bytes, policy: policy)
            return try score.read()
        }
        if XMIReader.isXMI(bytes) {
            var song = XMIReader(bytes, policy: policy)
            return try song.read()
        }
        if HMPReader.isHMP(bytes) {
            var song = HMPReader(bytes, policy: policy)
            return try song.read()
        }
        if HMIReader.isHMI(bytes) {
            var song = HMIReader(bytes, policy: policy)
            return try song.read()
        }
        if RecomposerReader.isRecomposer(bytes) {
            var song = RecomposerReader(bytes, policy: policy)
            return try song.read()
        }
        var log = WarningLog(policy: policy)
        let layout = try SMFLayout(bytes, log: &log)
        var tracks: [Track] = []
        tracks.reserveCapacity(layout.tracks.count)
        for (index, result) in parseTracks(layout.tracks, releasingParsedTracks: releasingParsedTracks).enumerated() {
            for warning in layout.warnings(beforeTrack: index) { try log.add(warning) }
            let (track, trackLog) = try result.get()
            tracks.append(track)
            log.add(contentsOf: trackLog)
        }
        for warning in layout.warningsAfterLastTrack { try log.add(warning) }
        return Output(
            file: MIDIFile(
                format: layout.format, timebase: layout.timebase, tracks: tracks, rmidInfo: layout.rmidInfo,
                embeddedSoundBank: layout.embeddedSoundBank),
            warnings: log.warnings, omittedWarningCount: log.omittedCount)
    }

    /// Parses tracks on all cores when there is enough to share; each track is
    /// independent. One after another, parsing stops at the first failure.
    private func parseTracks(_ chunks: [TrackParser], releasingParsedTracks: Bool) -> [Result<(Track, WarningLog), SMFError>] {
        let totalBytes = chunks.reduce(0) { $0 + $1.body.count }
        let policy = policy
        guard chunks.count > 1, totalBytes >= 1 << 20 else {
            var results: [Result<(Track, WarningLog), SMFError>] = []
            for chunk in chunks {
                results.append(Result { () throws(SMFError) in try TrackBuilder.track(from: chunk, policy: policy) })
                if case .failure = results.last { break }
            }
            return results
        }
        // The parsers point into the file's bytes, which they only read (each releases only pages
        // wholly inside its own track) and which outlive them: what a pointer cannot say.
        nonisolated(unsafe) let chunks = chunks
        return WorkerThreads.results(ofJobs: chunks.count) { index throws(SMFError) in
            defer { if releasingParsedTracks { Self.release(chunks[index].body, of: chunks[index].bytes) } }
            return try TrackBuilder.track(from: chunks[index], policy: policy)
        }
    }

    /// Gives the memory pages wholly inside a parsed track's body back to the system (they would
    /// read as zeros; nothing reads them again): a large file's bytes go as its events come, so
    /// the reader never holds both whole (2,000,000 notes: 14 MB of file, 32 MB of events). Only
    /// for bytes the reader read itself, which no caller sees.
    private static func release(_ body: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let address = Int(bitPattern: base)
        let start = (address + body.lowerBound + page - 1) / page * page
        let end = (address + body.upperBound) / page * page
        guard end > start, let pages = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pages, end - start, MADV_DONTNEED)
    }
}
