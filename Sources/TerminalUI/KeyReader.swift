#if canImport(Glibc)
    import Glibc
#endif

/// The keys the player and browser understand.
enum Key: Equatable {
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace
    case character(Character)
}

/// Reads keys from standard input (or another file descriptor, such as a pipe), waiting at most
/// a given time for one.
///
/// A key's bytes may be split between two reads (many keys arriving at once fill a read), so the
/// bytes of a key not yet whole are kept for the next read. ESC alone is the Escape key only when
/// nothing follows it within `sequenceWaitMilliseconds`, as curses decides: a terminal writes the
/// rest of a cursor key's sequence at once.
struct KeyReader {
    /// How many bytes one read takes at most.
    static let readSize = 64
    /// How long the rest of a key's bytes may take to come after its first ones.
    static let sequenceWaitMilliseconds: Int32 = 40

    private let fileDescriptor: Int32
    /// Bytes read and not yet taken as keys.
    private var pending: [UInt8] = []
    /// The input has ended (a pipe closed, /dev/null): no key will come.
    private(set) var isClosed = false

    init(fileDescriptor: Int32 = STDIN_FILENO) {
        self.fileDescriptor = fileDescriptor
    }

    /// The next key, or `nil` if none came within `milliseconds` (or only keys that are ignored).
    mutating func next(waitingAtMost milliseconds: Int32) -> Key? {
        if pending.isEmpty {
            guard !isClosed else {
                sleep(milliseconds: milliseconds)
                return nil
            }
            guard readMore(waitingAtMost: milliseconds) else { return nil }
        }
        // After a key that is ignored, what has come meanwhile is taken at once.
        while !pending.isEmpty || readMore(waitingAtMost: 0) {
            var decoded = Self.decode(pending[...], moreMayFollow: true)
            if decoded == nil, !readMore(waitingAtMost: Self.sequenceWaitMilliseconds) {
                // Nothing more came: the bytes are what they are on their own.
                decoded = Self.decode(pending[...], moreMayFollow: false)
            }
            guard let (key, length) = decoded else { continue }
            pending.removeFirst(length)
            if let key { return key }
        }
        return nil
    }

    /// Appends to `pending` what arrives within `milliseconds`; false if nothing did.
    private mutating func readMore(waitingAtMost milliseconds: Int32) -> Bool {
        guard !isClosed else { return false }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        var bytes = [UInt8](repeating: 0, count: Self.readSize)
        let count = read(fileDescriptor, &bytes, bytes.count)
        if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { isClosed = true }
        guard count > 0 else { return false }
        pending += bytes[..<count]
        return true
    }

    private func sleep(milliseconds: Int32) {
        var request = timespec(tv_sec: 0, tv_nsec: Int(milliseconds) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 { request = remaining }
    }

    /// The key at the start of `bytes` (`nil` for one not understood, such as F5 or Ctrl+←) and
    /// how many bytes it takes; `nil` when its bytes are not all there and `moreMayFollow`.
    private static func decode(_ bytes: ArraySlice<UInt8>, moreMayFollow: Bool) -> (key: Key?, length: Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B:
            guard bytes.count > 1 else { return moreMayFollow ? nil : (.escape, 1) }
            let second = bytes[bytes.startIndex + 1]
            // ESC [ and ESC O start a cursor key; ESC before anything else is Escape, then that key.
            guard second == 0x5B || second == 0x4F else { return (.escape, 1) }
            return decodeControlSequence(bytes, moreMayFollow: moreMayFollow)
        case 0x0A, 0x0D: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        default:
            // A UTF-8 character is read whole; invalid bytes are skipped.
            let expectedLength =
                switch first {
                case 0xC0...0xDF: 2
                case 0xE0...0xEF: 3
                case 0xF0...0xF7: 4
                default: 1
                }
            let length = 1 + bytes.dropFirst().prefix(expectedLength - 1).prefix { $0 & 0xC0 == 0x80 }.count
            if length < expectedLength, length == bytes.count, moreMayFollow { return nil }
            let character = String(validating: bytes.prefix(length), as: UTF8.self).flatMap(\.first)
            return (character.map(Key.character), length)
        }
    }

    /// The sequence at the start of `bytes`, which start with ESC [ or ESC O: parameter and
    /// intermediate bytes, then a final byte (ECMA-48). One with parameters other than those of
    /// Home, End, Page Up and Page Down (`ESC [ 5 ~`) is taken whole and ignored: F5 is
    /// `ESC [ 1 5 ~`, Ctrl+↑ `ESC [ 1 ; 5 A`. When only part of it is there: `nil` if `moreMayFollow`,
    /// else that part, ignored.
    private static func decodeControlSequence(_ bytes: ArraySlice<UInt8>, moreMayFollow: Bool) -> (key: Key?, length: Int)? {
        let body = bytes.dropFirst(2)
        guard let finalIndex = body.firstIndex(where: { !(0x20...0x3F).contains($0) }) else {
            return moreMayFollow ? nil : (nil, bytes.count)
        }
        let length = finalIndex - bytes.startIndex + 1
        let final = bytes[finalIndex]
        // A control byte cuts the sequence short: the sequence is dropped, the byte read as a key.
        guard (0x40...0x7E).contains(final) else { return (nil, length - 1) }
        let parameters = String(decoding: body[..<finalIndex], as: UTF8.self)
        let key: Key? =
            switch (parameters, final) {
            case ("", 0x41): .up
            case ("", 0x42): .down
            case ("", 0x43): .right
            case ("", 0x44): .left
            case ("", 0x48), ("1", 0x7E): .home
            case ("", 0x46), ("4", 0x7E): .end
            case ("5", 0x7E): .pageUp
            case ("6", 0x7E): .pageDown
            default: nil
            }
        return (key, length)
    }
}
