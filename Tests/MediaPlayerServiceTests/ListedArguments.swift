@testable import MediaPlayerService

/// A call's arguments given as values, read in order as sd-bus reads a message's: a read of
/// another type than the next value's, or past the last, fails as a broken message does.
final class ListedArguments: CallArguments {
    enum Value {
        case string(String), objectPath(String), int64(Int64), bool(Bool), double(Double)
    }

    private var values: ArraySlice<Value>

    init(_ values: [Value]) {
        self.values = values[...]
    }

    private func next() throws(MediaPlayerCallError) -> Value {
        guard let value = values.popFirst() else { throw .unreadableArguments("no more arguments") }
        return value
    }

    private func mismatch(_ value: Value) -> MediaPlayerCallError { .unreadableArguments("not the type asked for: \(value)") }

    func string() throws(MediaPlayerCallError) -> String {
        let value = try next()
        guard case .string(let text) = value else { throw mismatch(value) }
        return text
    }

    func objectPath() throws(MediaPlayerCallError) -> String {
        let value = try next()
        guard case .objectPath(let path) = value else { throw mismatch(value) }
        return path
    }

    func int64() throws(MediaPlayerCallError) -> Int64 {
        let value = try next()
        guard case .int64(let number) = value else { throw mismatch(value) }
        return number
    }

    func bool() throws(MediaPlayerCallError) -> Bool {
        let value = try next()
        guard case .bool(let flag) = value else { throw mismatch(value) }
        return flag
    }

    func double() throws(MediaPlayerCallError) -> Double {
        let value = try next()
        guard case .double(let number) = value else { throw mismatch(value) }
        return number
    }
}
