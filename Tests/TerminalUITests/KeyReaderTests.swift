import Foundation
import TestSupport
import Testing

@testable import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// Keys read from a pipe, with their bytes written as a terminal writes them: many keys at once,
/// more than one read holds, and ESC alone.
@Suite("Key reader")
struct KeyReaderTests {
    /// A pipe whose bytes are read as keys; its writing end stays open, as a terminal's does.
    final class KeyPipe {
        private let readEnd: Int32
        /// -1 once closed.
        private(set) var writeEnd: Int32
        private var reader: KeyReader

        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw TestFailure("pipe: \(String(cString: strerror(errno)))") }
            (readEnd, writeEnd) = (ends[0], ends[1])
            reader = KeyReader(fileDescriptor: readEnd)
        }

        deinit {
            close(readEnd)
            if writeEnd >= 0 { close(writeEnd) }
        }

        static func write(_ text: String, to fileDescriptor: Int32) {
            let bytes = Array(text.utf8)
            #expect(Glibc.write(fileDescriptor, bytes, bytes.count) == bytes.count)
        }

        func write(_ text: String) {
            Self.write(text, to: writeEnd)
        }

        /// The keys read until none comes for longer than the rest of a key may take.
        func keys() -> [Key] {
            var keys: [Key] = []
            while let key = reader.next(waitingAtMost: 4 * KeyReader.sequenceWaitMilliseconds) { keys.append(key) }
            return keys
        }

        /// Closes the writing end: the input ends.
        func closeWriting() {
            close(writeEnd)
            writeEnd = -1
        }
    }

    @Test("22 ↓ at once, more than one read holds: 22 ↓, no Escape")
    func heldCursorKey() throws {
        let keys = try KeyPipe()
        keys.write(String(repeating: "\u{1B}[B", count: 22) + "\r")
        #expect(keys.keys() == Array(repeating: .down, count: 22) + [.enter])
    }

    @Test(
        "each key split between two reads at each of its bytes: read whole, the keys around it too",
        arguments: [
            ("\u{1B}[A", Key.up), ("\u{1B}OB", .down), ("\u{1B}[H", .home), ("\u{1B}[4~", .end), ("\u{1B}[5~", .pageUp),
            ("\u{1B}[6~", .pageDown), ("é", .character("é")), ("中", .character("中")), ("🎹", .character("🎹")),
            ("\u{1B}[15~", nil), ("\u{1B}[1;5A", nil),
        ] as [(String, Key?)])
    func splitKey(bytes: String, key: Key?) throws {
        for split in 1..<bytes.utf8.count {
            let keys = try KeyPipe()
            // The first read ends `split` bytes into the key.
            let before = String(repeating: "x", count: KeyReader.readSize - split)
            keys.write(before + bytes + "q")
            let expected = Array(repeating: Key.character("x"), count: before.count) + (key.map { [$0] } ?? []) + [.character("q")]
            #expect(keys.keys() == expected, "split after byte \(split)")
        }
    }

    @Test("F5 and Ctrl+arrows: one key each, ignored, not Home and `~`")
    func unknownSequences() throws {
        let keys = try KeyPipe()
        keys.write("\u{1B}[15~\u{1B}[1;5A\u{1B}[1;5C\u{1B}OP\u{1B}[3~q")
        #expect(keys.keys() == [.character("q")])
    }

    @Test("ESC is Escape when nothing follows it, or when another key does")
    func escapeKey() throws {
        let keys = try KeyPipe()
        keys.write("\u{1B}")
        #expect(keys.keys() == [.escape])
        keys.write("\u{1B}q\u{1B}\u{1B}[D")
        #expect(keys.keys() == [.escape, .character("q"), .escape, .left])
    }

    @Test("the input ends inside a key: ESC is Escape, the keys before are read, then none")
    func inputEnds() throws {
        let keys = try KeyPipe()
        keys.write("a\r\u{7F}\u{1B}")
        keys.closeWriting()
        #expect(keys.keys() == [.character("a"), .enter, .backspace, .escape])
    }
}
