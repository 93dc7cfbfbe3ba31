import SMF
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Times smfplay's reader in this process: read the file from disk, build the
/// `Song` and compute its duration, as `smfplay` does before it plays.
struct ParseTiming {
    struct Report {
        var runs: Int
        var firstMilliseconds: Double
        var bestMilliseconds: Double
        var medianMilliseconds: Double
        var fileBytes: Int
        var tracks: Int
        var events: Int
        var notes: Int
        var warnings: Int
        var duration: Double

        /// One line of `key=value` fields, for scripts.
        var line: String {
            [
                "best_ms=\(format(bestMilliseconds))",
                "median_ms=\(format(medianMilliseconds))",
                "first_ms=\(format(firstMilliseconds))",
                "runs=\(runs)",
                "duration_s=\(format(duration))",
                "notes=\(notes)",
                "events=\(events)",
                "tracks=\(tracks)",
                "warnings=\(warnings)",
                "bytes=\(fileBytes)",
            ].joined(separator: " ")
        }

        private func format(_ value: Double) -> String {
            let thousandths = (value * 1000).rounded()
            let whole = Int(thousandths / 1000)
            let fraction = Int(thousandths) - whole * 1000
            return "\(whole)." + String(String(fraction + 1000).dropFirst())
        }
    }

    var path: String
    var repeats: Int

    func run() throws -> Report {
        let reader = SMFReader()
        let clock = ContinuousClock()
        var times: [Double] = []
        var last: (song: Song, warnings: Int)?
        for _ in 0..<max(1, repeats) {
            // Free the previous run's song before the clock starts.
            last = nil
            let start = clock.now
            let output = try reader.read(path: FilePath(path))
            let song = Song(file: output.file)
            let duration = song.duration
            let elapsed = clock.now - start
            // Keep everything alive until the clock has stopped.
            last = (song, output.warnings.count + output.omittedWarningCount)
            sink.add(duration.bitPattern, ordering: .relaxed)
            let (seconds, attoseconds) = elapsed.components
            times.append(Double(seconds) * 1000 + Double(attoseconds) / 1e15)
        }
        let song = last!.song
        let tracks = song.file.tracks
        var notes = 0
        for track in tracks {
            for event in track.events where event.startsNote { notes += 1 }
        }
        let sorted = times.sorted()
        let middle = sorted.count / 2
        return Report(
            runs: times.count,
            firstMilliseconds: times[0],
            bestMilliseconds: sorted[0],
            medianMilliseconds: sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2,
            fileBytes: fileSize(),
            tracks: tracks.count,
            events: tracks.reduce(0) { $0 + $1.events.count },
            notes: notes,
            warnings: last!.warnings,
            duration: song.duration)
    }

    private func fileSize() -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}

/// Written to so the optimizer cannot drop the work being timed.
let sink = Atomic<UInt64>(0)
