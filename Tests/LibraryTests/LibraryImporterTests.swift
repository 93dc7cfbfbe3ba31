import Dispatch
import Foundation
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
        let folder = try Folder()
        let source = try folder.write("Downloads/Prélude.mid", Self.midi(7))
        let importer = LibraryImporter(folder: folder.path + "/Music/MIDI/Inbox")
        let copy = try importer.importFile(atPath: source)
        #expect(copy == folder.path + "/Music/MIDI/Inbox/Prélude.mid")
        #expect(try folder.bytes("Music/MIDI/Inbox/Prélude.mid") == Self.midi(7))
        // Nothing else is left in the folder: no temporary file.
        #expect(try folder.names(in: "Music/MIDI/Inbox") == ["Prélude.mid"])
        // The original stays where it was.
        #expect(try folder.bytes("Downloads/Prélude.mid") == Self.midi(7))
    }

    @Test("a name that is taken gets the next number before its extension; no file is replaced")
    func numbersTakenNames() throws {
        let folder = try Folder()
        try folder.write("Inbox/Song.mid", Self.midi(1))
        try folder.write("Inbox/Song (2).mid", Self.midi(2))
        let importer = LibraryImporter(folder: folder.path + "/Inbox")
        let first = try importer.importFile(atPath: try folder.write("a/Song.mid", Self.midi(3)))
        let second = try importer.importFile(atPath: try folder.write("b/Song.mid", Self.midi(4)))
        #expect(first == folder.path + "/Inbox/Song (3).mid")
        #expect(second == folder.path + "/Inbox/Song (4).mid")
        #expect(try folder.names(in: "Inbox") == ["Song (2).mid", "Song (3).mid", "Song (4).mid", "Song.mid"])
        #expect(try (1...4).map { try folder.bytes("Inbox/" + ($0 == 1 ? "Song.mid" : "Song (\($0)).mid")) }
                == (1...4).map { Self.midi(UInt8($0)) })
    }

    @Test("the content decides: a misnamed MIDI file and an RMID file are imported, text named .mid is refused")
    func detectsByContent() throws {
        let folder = try Folder()
        let importer = LibraryImporter(folder: folder.path + "/Inbox")
        #expect(try importer.importFile(atPath: try folder.write("attachment.bin", Self.midi())) == folder.path + "/Inbox/attachment.bin")
        #expect(try importer.importFile(atPath: try folder.write("Canyon.rmi", Self.rmid())) == folder.path + "/Inbox/Canyon.rmi")
        let fake = try folder.write("fake.mid", Array("<html>not found</html>".utf8))
        #expect(throws: LibraryImportError.notMIDI(path: fake)) { try importer.importFile(atPath: fake) }
        let riffWave = try folder.write("sound.mid", Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WAVE".utf8))
        #expect(throws: LibraryImportError.notMIDI(path: riffWave)) { try importer.importFile(atPath: riffWave) }
        let empty = try folder.write("empty.mid", [])
        #expect(throws: LibraryImportError.notMIDI(path: empty)) { try importer.importFile(atPath: empty) }
        #expect(try folder.names(in: "Inbox") == ["Canyon.rmi", "attachment.bin"])
    }

    @Test("a missing file, a folder and a FIFO are refused with a message naming them, without waiting")
    func refusesWhatIsNotAFile() throws {
        let folder = try Folder()
        let importer = LibraryImporter(folder: folder.path + "/Inbox")
        let missing = folder.path + "/missing.mid"
        #expect(throws: LibraryImportError.unreadable(path: missing, reason: "No such file or directory")) {
            try importer.importFile(atPath: missing)
        }
        let subfolder = folder.path + "/Chopin.mid"
        try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: true)
        #expect(throws: LibraryImportError.isFolder(path: subfolder)) { try importer.importFile(atPath: subfolder) }
        let fifo = folder.path + "/pipe.mid"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: LibraryImportError.unreadable(path: fifo, reason: "not a regular file")) { try importer.importFile(atPath: fifo) }
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
        #expect(LibraryImportError.cannotWrite(path: "/x", reason: "No space left on device").description == "/x: cannot write: No space left on device")
    }

    @Test("a destination that is a file is refused, naming it; the source is left alone")
    func destinationIsAFile() throws {
        let folder = try Folder()
        let source = try folder.write("song.mid", Self.midi())
        let blocker = try folder.write("Library", Array("x".utf8))
        #expect(throws: LibraryImportError.cannotWrite(path: blocker, reason: "not a folder")) {
            try LibraryImporter(folder: blocker).importFile(atPath: source)
        }
        let below = blocker + "/Inbox"
        #expect(throws: LibraryImportError.cannotWrite(path: below, reason: "Not a directory")) {
            try LibraryImporter(folder: below).importFile(atPath: source)
        }
        #expect(try folder.bytes("song.mid") == Self.midi())
    }

    @Test("imports racing for one name each get a name of their own, and every copy is whole")
    func racingImports() throws {
        let folder = try Folder()
        let count = 24
        let sources = try (0..<count).map { try folder.write("from \($0)/Song.mid", Self.midi(UInt8($0))) }
        let importer = LibraryImporter(folder: folder.path + "/Inbox")
        let results = Results(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            do throws(LibraryImportError) {
                results.set(index, .success(try importer.importFile(atPath: sources[index])))
            } catch {
                results.set(index, .failure(error))
            }
        }
        let destinations = try results.all().map { try $0.get() }
        #expect(Set(destinations).count == count)
        let expectedNames = ["Song.mid"] + (2...count).map { "Song (\($0)).mid" }
        #expect(try folder.names(in: "Inbox") == expectedNames.sorted())
        for (index, destination) in destinations.enumerated() {
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination))) == Self.midi(UInt8(index)))
        }
    }

    @Test("numbered names keep the extension, and stay within 255 bytes at a character boundary")
    func numberedNames() {
        #expect(NumberedFileName("Song.mid").candidate(1) == "Song.mid")
        #expect(NumberedFileName("Song.mid").candidate(2) == "Song (2).mid")
        #expect(NumberedFileName("Op.10 No.3.MID").candidate(12) == "Op.10 No.3 (12).MID")
        #expect(NumberedFileName("README").candidate(3) == "README (3)")
        #expect(NumberedFileName(".mid").candidate(2) == ".mid (2)")
        let long = String(repeating: "é", count: 125) + "x.mid"   // 250 + 1 + 4 = 255 bytes
        let numbered = NumberedFileName(long).candidate(2)
        #expect(numbered.utf8.count <= 255)
        #expect(numbered == String(repeating: "é", count: 123) + " (2).mid")
    }
}

/// Results written from many threads, one slot each.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<String, LibraryImportError>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<String, LibraryImportError>) { lock.withLock { slots[index] = result } }

    func all() -> [Result<String, LibraryImportError>] { lock.withLock { slots.compactMap { $0 } } }
}
