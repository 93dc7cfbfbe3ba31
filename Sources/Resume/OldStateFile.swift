import Files
import Foundation
import Library
import SystemPackage

/// The resume state as smfplay kept it before it had a database: `state.json`, rewritten whole
/// every second. Read once, to carry its queue and position over, then removed.
struct OldStateFile: Decodable {
    static let name: FilePath.Component = "state.json"
    /// A queue of a hundred thousand files fits many times over.
    static let sizeLimit = 64 << 20

    struct Position: Decodable {
        let seconds: Double
        let ticks: Int
    }

    let version: Int
    let libraryRoot: String
    let queue: [String]
    let order: [Int]
    let place: Int
    let position: Position
    let file: FileStamp?
    let repeatMode: String
    let shuffled: Bool

    /// The state in the file at `path`: nil when there is none; a reason when it cannot be used.
    static func read(_ path: FilePath) -> Result<ResumeState, OldStateFileProblem>? {
        let bytes: [UInt8]
        do {
            bytes = try SmallFile.read(path, limit: sizeLimit)
        } catch {
            if error == .missing { return nil }
            return .failure(OldStateFileProblem(reason: error.description))
        }
        let old: OldStateFile
        do {
            old = try JSONDecoder().decode(OldStateFile.self, from: Data(bytes))
        } catch {
            return .failure(OldStateFileProblem(reason: "not a resume state smfplay can read"))
        }
        guard old.version == 1 else {
            return .failure(OldStateFileProblem(reason: "format version \(old.version), which this smfplay does not read"))
        }
        var queue: [LibraryPath] = []
        for stored in old.queue {
            guard let path = LibraryPath(stored: FilePath(stored)) else {
                return .failure(OldStateFileProblem(reason: "\"\(stored)\" is not a path inside the library"))
            }
            queue.append(path)
        }
        let state = ResumeState(
            libraryRoot: FilePath(old.libraryRoot), queue: queue, order: old.order, repeatMode: old.repeatMode, shuffled: old.shuffled,
            position: .init(place: old.place, seconds: old.position.seconds, ticks: old.position.ticks, file: old.file))
        if let problem = state.problem { return .failure(OldStateFileProblem(reason: problem)) }
        return .success(state)
    }
}

/// Why an old `state.json` could not be carried over.
struct OldStateFileProblem: Error {
    let reason: String
}
