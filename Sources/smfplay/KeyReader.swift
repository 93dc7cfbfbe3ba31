#if canImport(Glibc)
import Glibc
#endif

/// The keys the player and browser understand.
enum Key: Equatable {
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace
    case character(Character)
}

/// Reads keys from standard input, waiting at most a given time for one.
struct KeyReader {
    private var pending: [UInt8] = []
    /// Standard input has ended (a pipe closed, /dev/null): no key will come.
    private(set) var isClosed = false

    /// The next key, or `nil` if none came within `milliseconds`.
    mutating func next(waitingAtMost milliseconds: Int32) -> Key? {
        if pending.isEmpty {
            guard !isClosed else {
                sleep(milliseconds: milliseconds)
                return nil
            }
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, milliseconds) > 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(STDIN_FILENO, &bytes, bytes.count)
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { isClosed = true }
            guard count > 0 else { return nil }
            pending = Array(bytes[..<count])
        }
        return parse()
    }

    private func sleep(milliseconds: Int32) {
        var request = timespec(tv_sec: 0, tv_nsec: Int(milliseconds) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 { request = remaining }
    }

    private mutating func parse() -> Key? {
        let first = pending.removeFirst()
        switch first {
        case 0x1B:
            // A lone ESC is the Escape key; ESC [ or ESC O starts a cursor key.
            guard pending.count >= 2, pending[0] == 0x5B || pending[0] == 0x4F else {
                return .escape
            }
            pending.removeFirst()
            let code = pending.removeFirst()
            switch code {
            case 0x41: return .up
            case 0x42: return .down
            case 0x43: return .right
            case 0x44: return .left
            case 0x48: return .home
            case 0x46: return .end
            case 0x31...0x36:
                // ESC [ n ~ : Home, End, Page Up, Page Down.
                if pending.first == 0x7E { pending.removeFirst() }
                switch code {
                case 0x31: return .home
                case 0x34: return .end
                case 0x35: return .pageUp
                case 0x36: return .pageDown
                default: return nil
                }
            default: return nil
            }
        case 0x0A, 0x0D: return .enter
        case 0x7F, 0x08: return .backspace
        default:
            // Multi-byte UTF-8 characters are read whole.
            var scalarBytes = [first]
            while let next = pending.first, next & 0xC0 == 0x80 {
                scalarBytes.append(pending.removeFirst())
            }
            return String(validating: scalarBytes, as: UTF8.self).flatMap(\.first).map(Key.character)
        }
    }
}
