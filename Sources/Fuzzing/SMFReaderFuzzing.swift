import SMF

/// The reader's promises for any bytes (as `BrokenFileTests` checks them on seeded mutations):
/// strict reading fails exactly where lenient reading warns or fails, at the first warning, and
/// otherwise reads the same file; warnings are capped; ticks never go back, and End of Track is
/// a track's last event. What is read makes a song and a summary.
enum SMFReaderFuzzing {
    static func test(_ bytes: [UInt8]) throws(FuzzFailure) {
        // Few warnings kept, so that inputs often pass the cap.
        let policy = SMFReadingPolicy(maximumWarnings: 8)
        let lenient: SMFReader.Output
        do {
            lenient = try SMFReader(policy: policy).read(bytes)
        } catch {
            if (try? SMFReader(policy: .strict).read(bytes)) != nil { throw .brokenPromise("lenient reading refuses (\(error)), strict reads") }
            return
        }
        guard lenient.warnings.count <= policy.maximumWarnings else { throw .brokenPromise("\(lenient.warnings.count) warnings kept") }
        for (number, track) in lenient.file.tracks.enumerated() {
            guard zip(track.events, track.events.dropFirst()).allSatisfy({ $0.tick <= $1.tick }) else {
                throw .brokenPromise("ticks go back in track \(number + 1)")
            }
            if let end = track.events.firstIndex(where: { track.metaType(of: $0) == 0x2F }), end != track.events.count - 1 {
                throw .brokenPromise("events after End of Track in track \(number + 1)")
            }
        }
        switch Result(catching: { () throws(SMFError) in try SMFReader(policy: .strict).read(bytes) }) {
        case .success(let strict):
            guard lenient.warnings.isEmpty else { throw .brokenPromise("strict reading accepts what warns: \(lenient.warnings)") }
            guard strict.file == lenient.file else { throw .brokenPromise("strict reading reads another file") }
        case .failure(let error):
            guard case .rejected(let warning) = error, warning == lenient.warnings.first else {
                throw .brokenPromise("strict reading fails with \(error); the warnings are \(lenient.warnings)")
            }
        }
        let song = Song(file: lenient.file)
        guard song.duration.isFinite, song.duration >= 0 else { throw .brokenPromise("a song of \(song.duration) seconds") }
        _ = SongSummary(song: song)
    }
}
