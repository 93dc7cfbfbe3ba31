import Library
import Loudness
import Playback
import Synchronization
import SystemPackage
import TerminalUI

/// `render --normalize --loudness folder`: before anything is written, the loudness of each
/// folder the songs come from, all of its MIDI files together (those not rendered too: an album
/// is the same album whichever of its songs are rendered), measured as the render will sound them
/// unless the library index knows them. Each job then carries its folder's loudness, which sets
/// its gain (one pass) and its tags' album gain.
struct RenderFolderLoudness {
    let renderer: BatchRenderer
    let memory: IndexedLoudnessMemory
    let quiet: Bool

    /// The jobs, each with its folder's loudness (nil for a folder of silence only); a song of a
    /// folder that cannot be measured is said and left out of its folder. Nil when cancelled.
    func levelled(_ jobs: [RenderJob], cancellation: Cancellation) -> [RenderJob]? {
        var folders: [FilePath] = []
        var songsOfFolder: [FilePath: [FilePath]] = [:]
        for job in jobs {
            let folder = job.input.removingLastComponent()
            if songsOfFolder[folder] == nil {
                folders.append(folder)
                songsOfFolder[folder] = FolderListing.midiFiles(in: folder)
            }
            // A song given by a name the listing does not take for MIDI still counts.
            if !songsOfFolder[folder]!.contains(job.input) { songsOfFolder[folder]!.append(job.input) }
        }
        let songs = folders.flatMap { songsOfFolder[$0]! }
        let measured = Mutex([Loudness?](repeating: nil, count: songs.count))
        let display = ProgressDisplay(totalFiles: songs.count, quiet: quiet)
        if !quiet { printError("measuring the loudness of \(Self.count(songs.count, "song")) in \(Self.count(folders.count, "folder"))") }
        renderer.measure(songs, in: memory, cancellation: cancellation) { event in
            switch event {
            case .started:
                break
            case .progress(let index, let fraction):
                display.progress(index: index, fraction: fraction)
            case .finished(let index, let result, _):
                measured.withLock { $0[index] = result.loudness }
                display.finished(index: index, audioSeconds: result.songSeconds, message: nil)
            case .known(let index, let loudness):
                measured.withLock { $0[index] = loudness }
                display.finished(index: index, audioSeconds: 0, message: nil)
            case .failed(let index, let error):
                display.finished(
                    index: index, audioSeconds: 0, message: "\(error.description) (left out of its folder's loudness)", isError: true)
            }
        }
        display.end()
        guard !cancellation.isCancelled else { return nil }
        let loudnessOfSong = Dictionary(zip(songs, measured.withLock { $0 }), uniquingKeysWith: { first, _ in first })
        let loudnessOfFolder = songsOfFolder.mapValues { songs in Loudness(together: songs.compactMap { loudnessOfSong[$0] ?? nil }) }
        return jobs.map { job in
            var job = job
            job.folderLoudness = loudnessOfFolder[job.input.removingLastComponent()] ?? nil
            return job
        }
    }

    private static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
