import Dispatch
import Foundation
import SystemPackage
import Testing

@testable import Library

/// `LibraryImporter`: copies that are whole, never replace a file, and are taken for their
/// content; what is refused, and why.
struct LibraryImporterTests {
    /// A small type-0 file: header and one empty track.
    static func midi(_ marker: UInt8 = 0) -> [UInt8] {
        Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, 5, 0, 0xFF, 0x2F, 0, marker]
    }

    /// The same song in a RIFF `RMID` wrapper, as Windows saved it.
    static func rmid() -> [UInt8] {
        let song = midi()
        let data = Array("data".utf8) + littleEndian(song.count) + song
        return Array("RIFF".utf8) + littleEndian(4 + data.count) + Array("RMID".utf8) + data
    }

    static func littleEndian(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("importer-Dvořák-\(UUID().uuidString)").path
        deinit { try? FileManager.default.removeItem(atPath: path) }

        @discardableResult
        func write(_ relative: String, _ bytes: [UInt8]) throws -> String {
            let file = path + "/" + relative
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            return file
        }

        func bytes(_ relative: String) throws -> [UInt8] {
            Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + relative)))
        }

        /// The names in a folder under this one, hidden ones included, sorted.
        func names(in relative: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: path + "/" + relative).sorted()
        }
    }

    @Test("a MIDI file is copied byte for byte into the folder, which is made with the folders above it")
    func copiesIntoNewFolder() throws {
        let folder = Folder()
        let source = try folder.write("Downloads/Prélude.mid", Self.midi(7))
        let importer = LibraryImporter(folder: FilePath(folder.path + "/Music/MIDI/Inbox"))
        let copy = try importer.importFile(at: FilePath(source))
        #expect(copy == FilePath(folder.path + "/Music/MIDI/Inbox/Prélude.mid"))
        #expect(try folder.bytes("Music/MIDI/Inbox/Prélude.mid") == Self.midi(7))
        // Nothing else is left in the folder: no temporary file.
        #expect(try folder.names(in: "Music/MIDI/Inbox") == ["Prélude.mid"])
        // The original stays where it was.
        #expect(try folder.bytes("Downloads/Prélude.mid") == Self.midi(7))
    }

    @Test("a name that is taken gets the next number before its extension; no file is replaced")
    func numbersTakenNames() throws {
        let folder = Folder()
        try folder.write("Inbox/Song.mid", Self.midi(1))
        try folder.write("Inbox/Song (2).mid", Self.midi(2))
        let importer = LibraryImporter(folder: FilePath(folder.path + "/Inbox"))
        let first = try importer.importFile(at: FilePath(try folder.write("a/Song.mid", Self.midi(3))))
        let second = try importer.importFile(at: FilePath(try folder.write("b/Song.mid", Self.midi(4))))
        #expect(first == FilePath(folder.path + "/Inbox/Song (3).mid"))
        #expect(second == FilePath(folder.path + "/Inbox/Song (4).mid"))
        #expect(try folder.names(in: "Inbox") == ["Song (2).mid", "Song (3).mid", "Song (4).mid", "Song.mid"])
        #expect(
            try (1...4).map { try folder.bytes("Inbox/" + ($0 == 1 ? "Song.mid" : "Song (\($0)).mid")) }
                == (1...4).map { Self.midi(UInt8($0)) })
    }

    @Test("the content decides: a misnamed MIDI file and an RMID file are imported, text named .mid is refused")
    func detectsByContent() throws {
        let folder = Folder()
        let importer = LibraryImporter(folder: FilePath(folder.path + "/Inbox"))
        #expect(
            try importer.importFile(at: FilePath(try folder.write("attachment.bin", Self.midi()))) == FilePath(folder.path + "/Inbox/attachment.bin"))
        #expect(try importer.importFile(at: FilePath(try folder.write("Canyon.rmi", Self.rmid()))) == FilePath(folder.path + "/Inbox/Canyon.rmi"))
        let fake = try folder.write("fake.mid", Array("<html>not found</html>".utf8))
        #expect(throws: LibraryImportError.notMIDI(path: FilePath(fake))) { try importer.importFile(at: FilePath(fake)) }
        let riffWave = try folder.write("sound.mid", Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WAVE".utf8))
        #expect(throws: LibraryImportError.notMIDI(path: FilePath(riffWave))) { try importer.importFile(at: FilePath(riffWave)) }
        let empty = try folder.write("empty.mid", [])
        #expect(throws: LibraryImportError.notMIDI(path: FilePath(empty))) { try importer.importFile(at: FilePath(empty)) }
        #expect(try folder.names(in: "Inbox") == ["Canyon.rmi", "attachment.bin"])
    }

    @Test("a missing file, a folder and a FIFO are refused with a message naming them, without waiting")
    func refusesWhatIsNotAFile() throws {
        let folder = Folder()
        let importer = LibraryImporter(folder: FilePath(folder.path + "/Inbox"))
        let missing = folder.path + "/missing.mid"
        #expect(throws: LibraryImportError.unreadable(path: FilePath(missing), reason: "no such file or directory")) {
            try importer.importFile(at: FilePath(missing))
        }
        let subfolder = folder.path + "/Chopin.mid"
        try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: true)
        #expect(throws: LibraryImportError.isFolder(path: FilePath(subfolder))) { try importer.importFile(at: FilePath(subfolder)) }
        let fifo = folder.path + "/pipe.mid"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: LibraryImportError.unreadable(path: FilePath(fifo), reason: "not a regular file")) {
            try importer.importFile(at: FilePath(fifo))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Inbox"))
    }

    @Test("messages are one line that starts with the file's path")
    func messages() {
        let errors: [LibraryImportError] = [
            .notMIDI(path: "/tmp/a.mid"), .isFolder(path: "/tmp/a.mid"),
            .unreadable(path: "/tmp/a.mid", reason: "Permission denied"), .cannotWrite(path: "/tmp/a.mid", reason: "No space left on device"),
        ]
        for error in errors {
            #expect(error.description.hasPrefix("/tmp/a.mid: "), "\(error)")
            #expect(!error.description.contains("\n"), "\(error)")
        }
        #expect(
            LibraryImportError.cannotWrite(path: "/x", reason: "No space left on device").description == "/x: cannot write: No space left on device")
    }

    @Test("a destination that is a file is refused, naming it; the source is left alone")
    func destinationIsAFile() throws {
        let folder = Folder()
        let source = try folder.write("song.mid", Self.midi())
        let blocker = try folder.write("Library", Array("x".utf8))
        #expect(throws: LibraryImportError.cannotWrite(path: FilePath(blocker), reason: "not a folder")) {
            try LibraryImporter(folder: FilePath(blocker)).importFile(at: FilePath(source))
        }
        // The file in the way is named, not the folder that could not be made below it.
        let below = blocker + "/Inbox"
        #expect(throws: LibraryImportError.cannotWrite(path: FilePath(blocker), reason: "not a folder")) {
            try LibraryImporter(folder: FilePath(below)).importFile(at: FilePath(source))
        }
        #expect(try folder.bytes("song.mid") == Self.midi())
    }

    @Test("imports racing for one name each get a name of their own, and every copy is whole")
    func racingImports() throws {
        let folder = Folder()
        let count = 24
        let sources = try (0..<count).map { try folder.write("from \($0)/Song.mid", Self.midi(UInt8($0))) }
        let importer = LibraryImporter(folder: FilePath(folder.path + "/Inbox"))
        let results = Results(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            do throws(LibraryImportError) {
                results.set(index, .success(try importer.importFile(at: FilePath(sources[index]))))
            } catch {
                results.set(index, .failure(error))
            }
        }
        let destinations = try results.all().map { try $0.get() }
        #expect(Set(destinations).count == count)
        let expectedNames = ["Song.mid"] + (2...count).map { "Song (\($0)).mid" }
        #expect(try folder.names(in: "Inbox") == expectedNames.sorted())
        for (index, destination) in destinations.enumerated() {
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination.string))) == Self.midi(UInt8(index)))
        }
    }

    @Test("numbered names keep the extension, and stay within 255 bytes at a character boundary")
    func numberedNames() {
        func name(_ text: String, _ number: Int) -> String { NumberedFileName(Array(text.utf8)).candidate(number).string }
        #expect(name("Song.mid", 1) == "Song.mid")
        #expect(name("Song.mid", 2) == "Song (2).mid")
        #expect(name("Op.10 No.3.MID", 12) == "Op.10 No.3 (12).MID")
        #expect(name("README", 3) == "README (3)")
        #expect(name(".mid", 2) == ".mid (2)")
        let long = String(repeating: "é", count: 125) + "x.mid" // 250 + 1 + 4 = 255 bytes
        let numbered = name(long, 2)
        #expect(numbered.utf8.count <= 255)
        #expect(numbered == String(repeating: "é", count: 123) + " (2).mid")
        // A Shift-JIS name ("曲.mid") keeps its bytes.
        let shiftJIS: [UInt8] = [0x8B, 0xC8] + Array(".mid".utf8)
        #expect(NumberedFileName(shiftJIS).candidate(2).bytes == [0x8B, 0xC8] + Array(" (2).mid".utf8))
    }
}

/// Results written from many threads, one slot each.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<FilePath, LibraryImportError>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<FilePath, LibraryImportError>) { lock.withLock { slots[index] = result } }

    func all() -> [Result<FilePath, LibraryImportError>] { lock.withLock { slots.compactMap { $0 } } }
}
