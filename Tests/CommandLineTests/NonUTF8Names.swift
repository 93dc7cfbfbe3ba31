import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A folder and a file named in Shift-JIS, as an old Japanese archive unpacked on Linux leaves
/// them: no String names them, so they are made from their bytes.
enum NonUTF8Names {
    /// "ショパン" in Shift-JIS.
    static let folder: [UInt8] = [0x83, 0x56, 0x83, 0x87, 0x83, 0x70, 0x83, 0x93]
    /// "夜想曲.mid" in Shift-JIS.
    static let file: [UInt8] = [0x96, 0xE9, 0x91, 0x7A, 0x8B, 0xC8] + Array(".mid".utf8)
    static let folderText = "ショパン"
    static let fileText = "夜想曲.mid"

    struct Piece {
        /// The file's path under the folder it was made in, as bytes: `ショパン/夜想曲.mid`.
        var relative: [UInt8]
        /// Its absolute path, as bytes.
        var absolute: [UInt8]
    }

    /// Makes `<parent>/ショパン/夜想曲.mid` (in Shift-JIS) holding `note` for 30 s.
    static func makeShiftJISPiece(in parent: String, note: UInt8, seconds: Int = 30) throws -> Piece {
        let folderPath = Array(parent.utf8) + [UInt8(ascii: "/")] + folder
        guard mkdir(cString(folderPath), 0o755) == 0 || errno == EEXIST else { throw TestFailure("cannot make the Shift-JIS folder: \(errno)") }
        let filePath = folderPath + [UInt8(ascii: "/")] + file
        try write(Songs.heldNote(note, seconds: seconds), to: filePath)
        return Piece(relative: folder + [UInt8(ascii: "/")] + file, absolute: filePath)
    }

    static func write(_ bytes: [UInt8], to path: [UInt8]) throws {
        let fd = open(cString(path), O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        guard fd >= 0 else { throw TestFailure("cannot create a file with a Shift-JIS name: \(errno)") }
        defer { close(fd) }
        guard Glibc.write(fd, bytes, bytes.count) == bytes.count else { throw TestFailure("cannot write a file with a Shift-JIS name") }
    }

    static func exists(_ path: [UInt8]) -> Bool {
        var info = stat()
        return stat(cString(path), &info) == 0
    }

    static func size(_ path: [UInt8]) -> Int {
        var info = stat()
        return stat(cString(path), &info) == 0 ? Int(info.st_size) : -1
    }

    static func cString(_ bytes: [UInt8]) -> [CChar] { (bytes + [0]).map { CChar(bitPattern: $0) } }

    /// `bytes` as `printf` octal escapes, to put them in a shell command's arguments.
    static func printfEscaped(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2E || byte == 0x2F
                ? String(UnicodeScalar(byte)) : "\\" + String(byte, radix: 8).leftPadded(to: 3)
        }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String { count >= length ? self : String(repeating: "0", count: length - count) + self }
}

extension Sandbox {
    /// The queue of the resume state, each path's bytes, read with Debian's `sqlite3`.
    func savedStateBytes() throws -> [[UInt8]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-readonly", statePath, "SELECT hex(path) FROM queue_file ORDER BY number"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").map { line in
            let hex = Array(line.utf8)
            return stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
        }
    }

    /// Runs `smfplay` through `sh -c`, `arguments` being shell words (with `$(printf …)` for bytes
    /// that are not UTF-8, which a Swift String cannot carry).
    func runThroughShell(_ arguments: String) throws -> Command.Result {
        let smfplay = try #require(Self.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        return try Command(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "exec \"$SMFPLAY\" \(arguments)"],
            environment: environment.merging(["SMFPLAY": smfplay.path]) { $1 },
            workingDirectory: URL(fileURLWithPath: work), timeLimit: 60
        ).run()
    }
}

/// Files whose names are not UTF-8, through the commands that take files (no sound server needed).
@Suite("Names that are not UTF-8")
struct NonUTF8NameTests {
    init() throws {
        try Fixtures.requireSoundFont()
    }

    @Test("info on the folder shows the name decoded from Shift-JIS; render of the folder keeps the name's bytes in the output's, .mid → .wav")
    func infoAndRenderOfAFolder() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("Library/README.txt", Array("x".utf8))
        let piece = try NonUTF8Names.makeShiftJISPiece(in: sandbox.path("Library"), note: 69, seconds: 1)
        let info = try sandbox.run(["info", "Library"])
        #expect(info.succeeded, "\(info)")
        #expect(info.stdout.contains("\(NonUTF8Names.folderText)/\(NonUTF8Names.fileText)"), "\(info)")

        let render = try sandbox.run(["render", "Library", "-o", "Out"] + PlayCommandTests.synthesis)
        #expect(render.succeeded, "\(render)")
        let output =
            Array(sandbox.path("Out").utf8) + [UInt8(ascii: "/")] + NonUTF8Names.folder + [UInt8(ascii: "/")]
            + NonUTF8Names.file.dropLast(3) + Array("wav".utf8)
        #expect(NonUTF8Names.exists(output), "no Out/ショパン/夜想曲.wav with the input's bytes: \(sandbox.files(under: "Out"))")
        #expect(NonUTF8Names.size(output) > 44 * 1024, "the output holds less than a quarter second of sound")
        #expect(render.stdout.contains("Out/\(NonUTF8Names.folderText)/夜想曲.wav"), "the output is not named as a person reads it: \(render)")
        _ = piece
    }

    @Test("render of one file named in Shift-JIS, given as the shell gives it: the output beside it keeps its bytes")
    func renderOfOneFileGivenByTheShell() throws {
        let sandbox = try Sandbox()
        let piece = try NonUTF8Names.makeShiftJISPiece(in: sandbox.work, note: 69, seconds: 1)
        let argument = "\"$(printf '\(NonUTF8Names.printfEscaped(piece.relative))')\""
        let render = try sandbox.runThroughShell("render \(argument) \(PlayCommandTests.synthesis.map { "'\($0)'" }.joined(separator: " "))")
        #expect(render.succeeded, "\(render)")
        let output = piece.absolute.dropLast(3) + Array("wav".utf8)
        #expect(NonUTF8Names.exists(Array(output)), "no 夜想曲.wav beside the input: \(sandbox.files(under: "."))")
        // info on it, named the same way.
        let info = try sandbox.runThroughShell("info \(argument)")
        #expect(info.succeeded && info.stdout.contains(NonUTF8Names.fileText), "\(info)")
    }

    @Test("an M3U playlist whose lines are Shift-JIS bytes: its file is found and rendered")
    func aPlaylistInShiftJIS() throws {
        let sandbox = try Sandbox()
        let piece = try NonUTF8Names.makeShiftJISPiece(in: sandbox.work, note: 69, seconds: 1)
        try NonUTF8Names.write(Array("#EXTM3U\r\n".utf8) + piece.relative + Array("\r\n".utf8), to: Array(sandbox.path("list.m3u").utf8))
        let render = try sandbox.run(["render", "list.m3u", "-o", "Out"] + PlayCommandTests.synthesis)
        #expect(render.succeeded, "\(render)")
        let output = Array(sandbox.path("Out").utf8) + [UInt8(ascii: "/")] + NonUTF8Names.file.dropLast(3) + Array("wav".utf8)
        #expect(NonUTF8Names.exists(output), "\(sandbox.files(under: "Out")) \(render)")
    }

    @Test("import of a file named in Shift-JIS (from a USB stick): the copy in the Inbox keeps its bytes, the message shows it decoded")
    func importKeepsTheName() throws {
        let sandbox = try Sandbox()
        let piece = try NonUTF8Names.makeShiftJISPiece(in: sandbox.work, note: 69, seconds: 1)
        let argument = "\"$(printf '\(NonUTF8Names.printfEscaped(piece.relative))')\""
        let result = try sandbox.runThroughShell("import --into Inbox \(argument)")
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.contains("\(NonUTF8Names.folderText)/\(NonUTF8Names.fileText) → "), "\(result)")
        #expect(result.stdout.contains("Inbox/\(NonUTF8Names.fileText)"), "\(result)")
        #expect(NonUTF8Names.exists(Array(sandbox.path("Inbox").utf8) + [UInt8(ascii: "/")] + NonUTF8Names.file), "\(sandbox.files(under: "Inbox"))")
    }
}
